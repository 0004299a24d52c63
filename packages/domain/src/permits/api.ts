import { defineApi } from '../api/contract.js';
import { fileResponse, idParams, okResponse } from '../api/shared.js';
import { permitCountsQuery, permitCountsResponse, permitListQuery, permitListResponse } from './list.js';
import {
  permitApproveBody,
  permitAttachmentResponse,
  permitCloseBody,
  permitCreateBody,
  permitCreatedResponse,
  permitExtensionBody,
  permitPrintableResponse,
  permitReasonBody,
  permitResponse,
  permitShareBody,
  permitShareParams,
  permitUnshareParams,
  permitUpdateBody,
} from './requests.js';

const permit = (action: 'read' | 'create' | 'update' | 'delete' | 'extend' | 'revoke' | 'close') =>
  ({ subject: 'Permit', action }) as const;
/**
 * Deciding declares the least it needs (Permit read): with a review workflow the reviewer whose turn it
 * is decides whatever their role holds; with none the approve (and reject) right decides. The server
 * asks the lifecycle table and the review engine (`permitAbilities`).
 */
const onRecord = permit('read');

/**
 * Permit requests (spec 001 §2–§5, §7; DECISIONS "API shape": plain REST under `/api/permit_requests`,
 * with the spec's own calls kept at their paths). Every move is a row of PERMIT_TRANSITIONS
 * (./lifecycle.ts); each answer carries the permit as the requester now sees it, with `abilities`.
 */
export const permitsApi = defineApi('permits', {
  list: {
    method: 'GET',
    path: '/api/permit_requests',
    access: permit('read'),
    summary:
      'Permits by tab (all, requested, drafts, approved, revoked, rejected, closed), flag (extended, overdue, pending closure), site, type, date range (the last six months by default) and keywords; export_to_excel=true gives exactly the filtered rows',
    query: permitListQuery,
    response: permitListResponse,
    file: 'on_export',
    exportJob: true,
  },
  counts: {
    method: 'GET',
    path: '/api/permit_requests/counts',
    access: permit('read'),
    summary: 'How many permits each tab and each flag holds for the filters',
    query: permitCountsQuery,
    response: permitCountsResponse,
  },
  uploadAttachment: {
    method: 'POST',
    path: '/api/permit_requests/attachments',
    access: permit('create'),
    summary: 'Upload a file for a request (multipart field "file"); name it in attachment_ids or an attachment question’s answer',
    upload: 'attachment',
    response: permitAttachmentResponse,
    status: 201,
  },
  uploadClosureAttachment: {
    method: 'POST',
    path: '/api/permit_requests/:id/closure_attachments',
    access: permit('close'),
    summary: 'Upload a file for the closure checklist of an issued permit; name it in the closing answers',
    params: idParams,
    upload: 'attachment',
    response: permitAttachmentResponse,
    status: 201,
    refusals: [409],
  },
  create: {
    method: 'POST',
    path: '/api/permit_requests',
    access: permit('create'),
    summary:
      'Start a permit from a switched-on template: a draft, or with submit=true a request sent at once (at least one worker, site, times and the required answers); the answer carries any clash',
    body: permitCreateBody,
    response: permitCreatedResponse,
    status: 201,
    refusals: [409],
  },
  get: {
    method: 'GET',
    path: '/api/permit_requests/:id',
    access: permit('read'),
    summary:
      'One permit: requester, workers, location, time of work, issuing officers, status, answers, clashes, the review and the timeline, and what the viewer may do (a draft: its requester and the people it was shared with only)',
    params: idParams,
    response: permitResponse,
  },
  update: {
    method: 'PATCH',
    path: '/api/permit_requests/:id',
    access: permit('update'),
    summary: 'Edit a draft (its requester or a person it was shared with): site, area, times, description, workers, answers, attachments',
    params: idParams,
    body: permitUpdateBody,
    response: permitResponse,
    refusals: [409],
  },
  remove: {
    method: 'DELETE',
    path: '/api/permit_requests/:id',
    access: permit('delete'),
    summary: 'Delete a draft (its authors), or a permit never issued (requested or rejected); issued permits are kept',
    params: idParams,
    response: okResponse,
    refusals: [409],
  },
  shareDraft: {
    method: 'POST',
    path: '/api/permit_form_questions/:permit_id/permit_request_send_draft',
    access: permit('update'),
    summary: 'Share a draft with another member who reads permits: both may then open and edit it; they are told',
    params: permitShareParams,
    body: permitShareBody,
    response: permitResponse,
    refusals: [409],
  },
  unshareDraft: {
    method: 'DELETE',
    path: '/api/permit_requests/:id/shares/:user_id',
    access: permit('update'),
    summary: 'Stop sharing a draft with a member (its requester, or that member leaving it)',
    params: permitUnshareParams,
    response: okResponse,
    refusals: [409],
  },
  submit: {
    method: 'POST',
    path: '/api/permit_requests/:id/submit',
    access: permit('create'),
    summary:
      'Send a draft to the issuing officers (the review workflow of its template or site, or the approve right); the answer carries any clash',
    params: idParams,
    response: permitResponse,
    refusals: [409],
  },
  approve: {
    method: 'POST',
    path: '/api/permit_requests/:id/approve',
    access: onRecord,
    summary: 'Approve what awaits the viewer: the permit, or its extension (the reviewer in turn, or the approve right)',
    params: idParams,
    body: permitApproveBody,
    response: permitResponse,
    refusals: [409],
  },
  reject: {
    method: 'POST',
    path: '/api/permit_requests/:id/reject',
    access: onRecord,
    summary: 'Reject the permit or its extension with the reason (the reviewer in turn, or the reject right)',
    params: idParams,
    body: permitReasonBody,
    response: permitResponse,
    refusals: [409],
  },
  requestExtension: {
    method: 'POST',
    path: '/api/permit_requests/:id/extensions',
    access: permit('extend'),
    summary: 'Ask for more time with the template’s declaration; approved like the permit, it adds the template’s extension hours',
    params: idParams,
    body: permitExtensionBody,
    response: permitResponse,
    refusals: [409],
  },
  revoke: {
    method: 'POST',
    path: '/api/permit_requests/:id/revoke',
    access: permit('revoke'),
    summary: 'Stop the work: revoke an issued permit with the reason',
    params: idParams,
    body: permitReasonBody,
    response: permitResponse,
    refusals: [409],
  },
  close: {
    method: 'POST',
    path: '/api/permit_requests/:id/close',
    access: permit('close'),
    summary: 'Close an issued permit with its closure checklist (the required answers) and a remark',
    params: idParams,
    body: permitCloseBody,
    response: permitResponse,
    refusals: [409],
  },
  clone: {
    method: 'POST',
    path: '/api/permit_requests/:id/clone',
    access: permit('create'),
    summary: 'A new draft from a permit: its type, site, area, description, workers and answers, starting at the next hour',
    params: idParams,
    response: permitCreatedResponse,
    status: 201,
    refusals: [409],
  },
  report: {
    method: 'GET',
    path: '/api/permits_data/:id/permit_report',
    access: permit('read'),
    summary: 'The permit as a PDF in the reader’s language, with the QR code of its public status page',
    params: idParams,
    response: fileResponse,
    file: 'always',
  },
  printable: {
    method: 'GET',
    path: '/api/permits_data/:id/printable',
    access: permit('read'),
    summary: 'The printable permit: the record, the address of its public status page and that address as a QR code (SVG)',
    params: idParams,
    response: permitPrintableResponse,
    refusals: [409],
  },
});
