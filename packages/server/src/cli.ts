import { parseArgs } from 'node:util';
import { loadConfig } from './platform/config.js';
import { connect } from './platform/db/db.js';
import { createOrganizationService, OrgInputError } from './modules/organizations/service.js';
import { describeStartupFailure } from './platform/startup.js';
import { openDatabase } from './runtime.js';

const USAGE = `Usage: npm run ehs -- <command> [options]

  migrate
      Apply the database migrations.
  org:create --domain <sub> --name <name> --admin-email <e> --admin-password <p> [--admin-name <n>]
      Create an organisation with its administrator.
  user:create --domain <sub> --email <e> --password <p> [--name <n>] [--role <role name>] [--admin]
      Add a user to an organisation.
  platform-admin:create --email <e> --password <p> [--name <n>]
      Create a platform super admin (signs in on the bare domain).

Uses DATABASE_URL, or the embedded database in DATA_DIR (the server must not be running on it).`;

class CliError extends Error {}

function fail(message: string): never {
  throw new CliError(message);
}

function required(values: Record<string, unknown>, names: string[]): void {
  const missing = names.filter((n) => typeof values[n] !== 'string' || (values[n] as string).trim() === '');
  if (missing.length) fail(`missing ${missing.map((m) => `--${m}`).join(', ')}\n\n${USAGE}`);
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  if (!command || command === '--help' || command === 'help') {
    console.log(USAGE);
    return;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      strict: true,
      options: {
        domain: { type: 'string' },
        name: { type: 'string' },
        email: { type: 'string' },
        password: { type: 'string' },
        role: { type: 'string' },
        admin: { type: 'boolean' },
        'admin-email': { type: 'string' },
        'admin-password': { type: 'string' },
        'admin-name': { type: 'string' },
      },
    });
  } catch (err) {
    fail(`${err instanceof Error ? err.message : String(err)}\n\n${USAGE}`);
  }
  const { values } = parsed;
  if (!['migrate', 'org:create', 'user:create', 'platform-admin:create'].includes(command))
    fail(`unknown command "${command}"\n\n${USAGE}`);

  const config = loadConfig();
  const { ownerUrl, appUrl, embedded } = await openDatabase(config, (m) => console.log(m));
  const db = connect(appUrl, ownerUrl, 2);
  const orgs = createOrganizationService(db.app);
  try {
    switch (command) {
      case 'migrate':
        console.log('Migrations are up to date.');
        break;
      case 'org:create': {
        required(values, ['domain', 'name', 'admin-email', 'admin-password']);
        const { organization } = await orgs.createOrganization({
          subDomain: values.domain!,
          name: values.name!,
          admin: {
            email: values['admin-email']!,
            password: values['admin-password']!,
            fullName: values['admin-name'] ?? values['admin-email']!,
          },
        });
        console.log(
          `Created organisation "${organization.name}" (${organization.subDomainName}, id ${organization.id}) with administrator ${values['admin-email']}.`,
        );
        break;
      }
      case 'user:create': {
        required(values, ['domain', 'email', 'password']);
        const user = await orgs.createUser(values.domain!, {
          email: values.email!,
          password: values.password!,
          fullName: values.name ?? values.email!,
          isAdmin: values.admin ?? false,
          ...(values.role ? { roleName: values.role } : {}),
        });
        console.log(`Created user ${values.email} (id ${user.id}) in organisation ${values.domain}.`);
        break;
      }
      case 'platform-admin:create': {
        required(values, ['email', 'password']);
        const admin = await orgs.createPlatformAdmin({
          email: values.email!,
          password: values.password!,
          fullName: values.name ?? values.email!,
        });
        console.log(`Created platform super admin ${values.email} (id ${admin.id}). Sign in on the bare domain.`);
        break;
      }
    }
  } catch (err) {
    if (err instanceof OrgInputError) throw new CliError(err.message);
    throw err;
  } finally {
    await db.close();
    await embedded?.stop();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    // The CLI's own refusals and a start it cannot make (e.g. the server holds the embedded database)
    // are one line; anything else is a bug, printed whole.
    const reason = err instanceof CliError ? err.message : describeStartupFailure(err);
    console.error(reason ? `Error: ${reason}` : err);
    process.exit(1);
  },
);
