import { defineApi } from '../api/contract.js';
import {
  mailerModuleParams,
  mailerModulesResponse,
  mailerOrganizationParams,
  mailerResetQuery,
  mailerScenarioDetailSchema,
  mailerScenarioParams,
  mailerScenariosResponse,
  mailOutboxQuery,
  mailOutboxResponse,
} from './schemas.js';
import { mailerTemplateSchema } from './template.js';

const admin = { admin: true } as const;
const scenarioPath = '/api/organizations/:id/mailer_modules/:moduleId/scenarios/:scenarioId';

/** Mail content management (spec 001 §5) and the organisation's outbox; the organisation admin's. */
export const mailersApi = defineApi('mailers', {
  modules: {
    method: 'GET',
    path: '/api/organizations/:id/mailer_modules',
    access: admin,
    summary: 'Modules of mail content management, with how many scenarios each has customised',
    params: mailerOrganizationParams,
    response: mailerModulesResponse,
  },
  scenarios: {
    method: 'GET',
    path: '/api/organizations/:id/mailer_modules/:moduleId/scenarios',
    access: admin,
    summary: 'Scenarios of one module, their variables and customised languages',
    params: mailerModuleParams,
    response: mailerScenariosResponse,
  },
  scenario: {
    method: 'GET',
    path: scenarioPath,
    access: admin,
    summary: 'One scenario: its texts in every language (own or default) and the defaults',
    params: mailerScenarioParams,
    response: mailerScenarioDetailSchema,
  },
  saveTemplate: {
    method: 'PUT',
    path: scenarioPath,
    access: admin,
    summary: "Save the organisation's texts of a scenario in one language (variables checked)",
    params: mailerScenarioParams,
    body: mailerTemplateSchema,
    response: mailerScenarioDetailSchema,
  },
  resetTemplate: {
    method: 'DELETE',
    path: scenarioPath,
    access: admin,
    summary: "Reset a scenario's texts in one language to the default",
    params: mailerScenarioParams,
    query: mailerResetQuery,
    response: mailerScenarioDetailSchema,
  },
  outbox: {
    method: 'GET',
    path: '/api/mail_outbox',
    access: admin,
    summary: "The organisation's outbox, newest first (what was sent, is pending, failed, or kept without SMTP)",
    query: mailOutboxQuery,
    response: mailOutboxResponse,
  },
});
