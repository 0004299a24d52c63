import v8 from 'node:v8';

/**
 * How far V8 lets the old generation grow past what the last full GC found alive before it collects
 * again: 1.5 times. By default V8 allows up to 4 times on a machine with memory to spare, and the
 * server holds about 75 MB alive, so garbage could reach some 200 MB before a full GC. A long job that
 * reads a lot from PostgreSQL gets there: V8 promotes much of each page of rows before it dies (about
 * 140 MB over a 100,000-row Excel export), and the process kept that memory (issue 13: 300 MB
 * resident, against 245 MB with this). 1.5 is within V8's own range (it uses 1.1 to 2 for small
 * heaps); a full GC then comes every ~40 MB of promoted garbage, mostly marked concurrently. Nothing is
 * capped, so no route can run out of heap because of it (as --max-old-space-size could make it).
 * Set as main.ts starts, before the server does; V8 reads it each time it sets the next limit.
 */
v8.setFlagsFromString('--heap-growing-percent=50');
