-- Failed logins per login name and per client address, shared by every server process.
create table login_throttle (
    key                 text primary key,
    failures            integer not null default 0,
    window_started_at   timestamptz not null default now(),
    locked_until        timestamptz
);
