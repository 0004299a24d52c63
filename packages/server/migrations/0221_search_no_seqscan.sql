-- The keyword search functions of 0220 read observations and actions through their indexes only.
-- PostgreSQL 18 plans a SQL function's statements with the call's values (15 did not): knowing a
-- common word and the LIMIT, it may read the table in physical order until enough rows match, which
-- reads every organisation's rows when the word is rare in this one. The functions are walled and
-- bounded by design; sequential reads are taken off their menu (the small name tables they also read
-- have no other way in and keep it).
alter function app_observation_search(uuid, text, integer, text, uuid, text, text, uuid, timestamp, timestamp, integer)
  set enable_seqscan = off;
alter function app_action_search(uuid, text, integer, text, uuid, uuid, text, text, date, date, integer)
  set enable_seqscan = off;
