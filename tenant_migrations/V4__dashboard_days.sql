-- Dashboard: the figures of each closed local day, computed once from the ledger and reused;
-- today's (and the last hour's) are always read live. Writing a ledger row dated on or after a
-- cached day, or voiding one of its rows, removes that day's entry; a change of time zone makes
-- every entry stale (they are kept per zone). Safe to apply while older servers still run: they
-- neither read nor invalidate it, so refresh it after such a window with `delete from daily_figures`.
create table daily_figures (
    day          date primary key,
    time_zone    text not null,
    accredited   bigint not null,
    redeemed     bigint not null,
    transactions bigint not null
);
