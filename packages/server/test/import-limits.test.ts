import { OBSERVATION_IMPORT_MAX_ROWS, translate, USER_IMPORT_MAX_ROWS, type Language } from '@bulwark/domain';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IMPORT_LIMITS } from '../src/platform/http/rate-limit.js';
import { createOrganizationService } from '../src/modules/organizations/service.js';
import { changes, describeChanges, openFootprint, type FootprintReader } from './attack/footprint.js';
import { manyRowsWorkbook } from './attack/workbooks.js';
import { createOrg, createTestApp, nextIp, PASSWORD, signIn, upload, type Session, type TestApp } from './helpers.js';

/**
 * The limits of the Excel imports: each import's own row maximum, said with its number in the reader's
 * language, and the budgets of imports per person and per organisation (issue 12, item 5).
 */
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const IMPORTS = [
  { url: '/api/observations_bulk_upload', max: OBSERVATION_IMPORT_MAX_ROWS, key: 'observations.validation.importTooMany' },
  { url: '/api/users/import', max: USER_IMPORT_MAX_ROWS, key: 'users.validation.tooManyRows' },
];
const LANGUAGES: Language[] = ['en', 'es', 'tr', 'zh'];

let t: TestApp;
let fp: FootprintReader;
let admins: Session[] = [];
let otherOrgAdmin: Session;

beforeAll(async () => {
  t = await createTestApp();
  const a = await createOrg(t, 'implim');
  const b = await createOrg(t, 'implimb');
  const orgs = createOrganizationService(t.deps.db.app);
  // Four people of one organisation who may import; the budget of a person is a third of the organisation's.
  for (const n of [1, 2, 3]) {
    await orgs.createUser(a.subDomain, {
      email: `admin${n}@implim.test`,
      fullName: `Admin ${n}`,
      password: PASSWORD,
      roleName: 'Administrator',
    });
  }
  admins = [
    await signIn(t, a.subDomain, a.adminEmail),
    ...(await Promise.all([1, 2, 3].map((n) => signIn(t, a.subDomain, `admin${n}@implim.test`)))),
  ];
  otherOrgAdmin = await signIn(t, b.subDomain, b.adminEmail);
  fp = await openFootprint(t.ownerUrl);
});

afterAll(async () => {
  await fp?.close();
  await t?.close();
});

beforeEach(async () => {
  await t.deps.db.ownerPool.query('delete from rate_limits');
});

const send = (s: Session, url: string, bytes: Buffer, lang: Language = 'en') =>
  upload(t, s, url, 'import.xlsx', bytes, XLSX, { ip: nextIp(), lang });

describe('row limits', () => {
  it("refuses one row more than an import's maximum, naming the maximum in every language, and writes nothing", async () => {
    for (const imp of IMPORTS) {
      const over = await manyRowsWorkbook(imp.max + 1);
      for (const lang of LANGUAGES) {
        const before = await fp.read();
        const res = await send(admins[0]!, imp.url, over, lang);
        expect(res.statusCode, `${imp.url} in ${lang}: ${res.body}`).toBe(413);
        expect(res.json().errors[0]).toBe(translate(lang, imp.key, { max: imp.max }));
        expect(res.json().errors[0]).toContain(String(imp.max));
        expect(describeChanges(changes(before, await fp.read())), `${imp.url} wrote rows`).toBe('nothing');
      }
      // Exactly the maximum passes the row limit (and is then refused for its columns).
      const full = await send(admins[0]!, imp.url, await manyRowsWorkbook(imp.max));
      expect(full.statusCode, `${imp.url}: ${full.body}`).toBe(400);
      expect(full.json().code).toBe('bad_format');
    }
  });
});

describe('import budgets', () => {
  const junk = Buffer.from('not a workbook');
  const { perUser, perOrganization } = IMPORT_LIMITS;

  it('lets a person start only so many imports, on any import route, failed ones included', async () => {
    const [first, second] = admins;
    for (let i = 0; i < perUser.max; i += 1) {
      const res = await send(first!, IMPORTS[i % IMPORTS.length]!.url, junk);
      expect(res.statusCode, `import ${i + 1}: ${res.body}`).toBe(400);
    }
    for (const lang of LANGUAGES) {
      const res = await send(first!, IMPORTS[0]!.url, junk, lang);
      expect(res.statusCode).toBe(429);
      expect(res.json().errors[0]).toBe(
        translate(lang, 'storage.importsPerUser', { max: perUser.max, minutes: perUser.windowSeconds / 60 }),
      );
    }
    // The budget is the person's: a colleague still imports.
    expect((await send(second!, IMPORTS[1]!.url, junk)).statusCode).toBe(400);
  });

  it("lets an organisation start only so many imports, whoever starts them, and never spends another organisation's", async () => {
    const people = Math.ceil(perOrganization.max / perUser.max);
    expect(admins.length, 'one more person than it takes to spend the budget').toBeGreaterThan(people);
    let sent = 0;
    for (const person of admins.slice(0, people)) {
      for (let i = 0; i < perUser.max && sent < perOrganization.max; i += 1, sent += 1) {
        expect((await send(person, IMPORTS[i % IMPORTS.length]!.url, junk)).statusCode).toBe(400);
      }
    }
    const fresh = admins[people]!;
    for (const lang of LANGUAGES) {
      const res = await send(fresh, IMPORTS[1]!.url, junk, lang);
      expect(res.statusCode, res.body).toBe(429);
      expect(res.json().errors[0]).toBe(
        translate(lang, 'storage.importsPerOrganization', { max: perOrganization.max, minutes: perOrganization.windowSeconds / 60 }),
      );
    }
    expect((await send(otherOrgAdmin, IMPORTS[0]!.url, junk)).statusCode).toBe(400);
  });
});
