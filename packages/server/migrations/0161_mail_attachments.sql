-- Mail attachments (issue 14: an incident's report is mailed with its PDF). The outbox names the stored
-- files to attach; delivery reads them when it sends. No foreign key: a file removed before delivery
-- leaves the mail to go without it, rather than holding the file or the mail back.
alter table mail_outbox add column attachment_file_ids uuid[] not null default '{}';
