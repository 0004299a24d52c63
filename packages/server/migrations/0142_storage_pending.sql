-- Storage that outsiders cannot fill, and that frees itself (issue 12, items 4 and 15).
--
-- A guest's upload is held apart from the quota until a submitted report links it: its bytes count in
-- organizations.storage_pending_bytes while files.pending is true, and move to storage_used_bytes (the
-- quota's figure) when a record links the file. Files no record links are swept a day after upload
-- (platform/storage/sweep.ts), whichever figure holds their bytes.
alter table organizations add column storage_pending_bytes bigint not null default 0 check (storage_pending_bytes >= 0);
alter table files add column pending boolean not null default false;

-- The sweep looks for old files, the admin's storage screen for the largest.
create index files_created on files (organization_id, created_at);
create index files_size on files (organization_id, size_bytes desc);

-- Names stored before invisible characters were stripped (C0 and C1 controls, bidirectional controls
-- such as the right-to-left override, zero-width characters): the same set as stripInvisible() of
-- packages/domain/src/storage/names.ts.
update files
set file_name = coalesce(
  nullif(btrim(regexp_replace(file_name, '[\x01-\x1F\x7F-\x9F\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB]', '', 'g')), ''),
  'file')
where file_name ~ '[\x01-\x1F\x7F-\x9F\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u2028-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0\uFFF9-\uFFFB]';
