import { siLocalDateTime, type SiTopic } from '@bulwark/domain';
import { asc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import { sites } from '../sites/read.js';
import { safetyInteractions, siBehaviours, siCounters, siParticipants, siSchedules } from './tables.js';

type DemoInteraction = {
  observer: string;
  daysAgo: number;
  hour: number;
  minutes: number;
  people: Array<string | { name: string }>;
  crew: string | null;
  topics: SiTopic[];
  safe: Array<[SiTopic, string]>;
  atRisk: Array<[SiTopic, string]>;
  recognition: boolean;
  comment: string | null;
  status: 'draft' | 'completed';
};

const DEMO: DemoInteraction[] = [
  {
    observer: 'priya.nair@demo.test',
    daysAgo: 2,
    hour: 9,
    minutes: 20,
    people: ['tomasz.kowalski@demo.test', { name: 'Jon Price (Apex Scaffolding)' }],
    crew: 'Scaffold crew, Line A',
    topics: ['working_at_height', 'ppe'],
    safe: [
      ['working_at_height', 'Harnesses clipped to the anchor rail on the mobile tower'],
      ['ppe', 'Chin straps worn on every helmet'],
    ],
    atRisk: [['working_at_height', 'Toe board missing on the second lift']],
    recognition: true,
    comment: 'The crew fixed the toe board before restarting.',
    status: 'completed',
  },
  {
    observer: 'tomasz.kowalski@demo.test',
    daysAgo: 9,
    hour: 14,
    minutes: 15,
    people: ['aisha.bello@demo.test'],
    crew: null,
    topics: ['manual_handling', 'housekeeping'],
    safe: [['manual_handling', 'Team lift used for the 40 kg drums']],
    atRisk: [
      ['housekeeping', 'Pallet wrap left on the walkway at Goods In'],
      ['manual_handling', 'Twisting while stacking boxes above shoulder height'],
    ],
    recognition: true,
    comment: null,
    status: 'completed',
  },
  {
    observer: 'priya.nair@demo.test',
    daysAgo: 38,
    hour: 7,
    minutes: 30,
    people: [{ name: 'Night shift forklift drivers' }],
    crew: 'Night shift logistics',
    topics: ['vehicles_traffic', 'line_of_fire'],
    safe: [['vehicles_traffic', 'Drivers sounded the horn at every blind corner']],
    atRisk: [['line_of_fire', 'Pedestrian walked behind a reversing forklift']],
    recognition: false,
    comment: 'Agreed to repaint the pedestrian crossing at Dock 2.',
    status: 'completed',
  },
  {
    observer: 'tomasz.kowalski@demo.test',
    daysAgo: 70,
    hour: 11,
    minutes: 25,
    people: ['li.wei@demo.test'],
    crew: null,
    topics: ['tools_equipment', 'procedures'],
    safe: [['procedures', 'Lock-out applied and verified before opening the guard']],
    atRisk: [['tools_equipment', 'Grinder used without its side handle']],
    recognition: true,
    comment: null,
    status: 'completed',
  },
  {
    observer: 'priya.nair@demo.test',
    daysAgo: 1,
    hour: 16,
    minutes: 10,
    people: [],
    crew: 'Paint shop',
    topics: ['hazardous_substances'],
    safe: [],
    atRisk: [],
    recognition: false,
    comment: 'To finish after talking to the supervisor.',
    status: 'draft',
  },
];

/** Demo interactions at the first demo site and a few plans around today (the demo sites and people must exist). */
export async function seedDemoSafetyInteractions(tx: Tx, now = new Date()): Promise<void> {
  const [site] = await tx.select().from(sites).orderBy(asc(sites.createdAt), asc(sites.id)).limit(1);
  if (!site) return;
  const people = new Map(
    (await tx.select({ id: users.id, email: users.email, fullName: users.fullName }).from(users)).map((u) => [u.email, u]),
  );
  const byEmail = (email: string) => people.get(email);
  const [admin] = await tx.select({ id: users.id }).from(users).where(eq(users.isAdmin, true)).limit(1);
  let serial = 0;
  for (const d of DEMO) {
    const observer = byEmail(d.observer);
    if (!observer) continue;
    serial += 1;
    const day = siLocalDateTime(site.timeZone, new Date(now.getTime() - d.daysAgo * 86_400_000)).slice(0, 10);
    const local = `${day}T${String(d.hour).padStart(2, '0')}:00`;
    const [row] = await tx
      .insert(safetyInteractions)
      .values({
        serial,
        status: d.status,
        observerId: observer.id,
        siteId: site.id,
        location: null,
        heldAt: sql`(${local}::timestamp at time zone ${site.timeZone})`,
        heldOn: day,
        durationMinutes: d.minutes,
        crew: d.crew,
        topics: d.topics,
        recognitionGiven: d.recognition,
        comment: d.comment,
        createdBy: observer.id,
        completedAt: d.status === 'completed' ? now : null,
      })
      .returning({ id: safetyInteractions.id });
    const interactionId = row!.id;
    const members = d.people.map((x) => (typeof x === 'string' ? byEmail(x) : null));
    const named = d.people.map((x, i) => ({
      userId: members[i]?.id ?? null,
      name: typeof x === 'string' ? (members[i]?.fullName ?? x) : x.name,
    }));
    if (named.length > 0) await tx.insert(siParticipants).values(named.map((x, position) => ({ interactionId, position, ...x })));
    const behaviours = [
      ...d.safe.map(([topic, note], position) => ({ interactionId, kind: 'safe' as const, position, topic, note })),
      ...d.atRisk.map(([topic, note], position) => ({ interactionId, kind: 'at_risk' as const, position, topic, note })),
    ];
    if (behaviours.length > 0) await tx.insert(siBehaviours).values(behaviours);
  }
  await tx.insert(siCounters).values({ lastSerial: serial });

  const today = siLocalDateTime(site.timeZone, now).slice(0, 10);
  const shift = (days: number) => new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
  const plans: Array<[string, number, string]> = [
    ['priya.nair@demo.test', 3, 'Walk the paint shop with the new starters.'],
    ['tomasz.kowalski@demo.test', 10, 'Warehouse racking and forklift traffic.'],
    ['tomasz.kowalski@demo.test', -4, 'Maintenance workshop: hand tools.'],
  ];
  for (const [email, days, note] of plans) {
    const observer = byEmail(email);
    if (observer)
      await tx
        .insert(siSchedules)
        .values({ observerId: observer.id, siteId: site.id, plannedDate: shift(days), note, createdBy: admin?.id ?? null });
  }
}
