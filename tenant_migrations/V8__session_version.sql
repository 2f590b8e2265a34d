-- A user's sessions end when their password is changed or reset: every token carries the
-- version it was issued under, and a request whose token's version is not the user's is refused.
-- Tokens issued before this column existed carry no version, which reads as 0, the default.
alter table users add column session_version integer not null default 0;
