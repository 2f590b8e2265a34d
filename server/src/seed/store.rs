//! The demo company's statements: its rules, staff, catalogue, customers and history, written
//! straight into its schema (the history is backdated, which no API allows).

use tokio_postgres::Transaction;
use tracing::instrument;

use crate::db::{self, quote_ident};
use crate::domain::Prefix;
use crate::tenant::privacy;

/// Points the transaction's statements at the company's schema (the one its platform row
/// names; none when there is no such company, so that no statement finds a table).
#[instrument(level = "debug", skip(tx))]
pub async fn enter_company(tx: &Transaction<'_>, prefix: &Prefix) -> Result<(), tokio_postgres::Error> {
    let schema = db::company_schema(tx, prefix).await?.unwrap_or_else(|| db::NO_TENANT_SCHEMA.to_string());
    tx.batch_execute(&format!("set local search_path to {}", quote_ident(&schema))).await
}

/// Whether the company has no ledger yet (the history is written only then).
#[instrument(level = "debug", skip(tx))]
pub async fn has_no_ledger(tx: &Transaction<'_>) -> Result<bool, tokio_postgres::Error> {
    Ok(tx.query_one("select not exists (select 1 from transactions)", &[]).await?.get(0))
}

/// The demo's rules: 1 point per 100 pesos, a point worth one peso, points that expire 365 days
/// after they are earned, oldest first.
#[instrument(level = "debug", skip(tx))]
pub async fn set_demo_rules(tx: &Transaction<'_>) -> Result<(), tokio_postgres::Error> {
    tx.execute(
        "update settings set points_per_peso = 0.01, redemption_rate = 1, campaign_multiplier = 1, \
         expiration_policy = 'fifo', points_expiration_days = 365",
        &[],
    )
    .await
    .map(drop)
}

#[instrument(level = "debug", skip(tx))]
pub async fn add_point_of_sale(tx: &Transaction<'_>, name: &str) -> Result<(), tokio_postgres::Error> {
    tx.execute("insert into points_of_sale (name) values ($1) on conflict do nothing", &[&name]).await.map(drop)
}

#[instrument(level = "debug", skip(tx))]
pub async fn user_exists(tx: &Transaction<'_>, username: &str) -> Result<bool, tokio_postgres::Error> {
    Ok(tx.query_opt("select 1 from users where username = $1", &[&username]).await?.is_some())
}

/// A user at the point of sale of that name.
#[instrument(level = "debug", skip(tx, password_hash))]
pub async fn add_user(
    tx: &Transaction<'_>,
    username: &str,
    password_hash: &str,
    role: &str,
    pos: &str,
) -> Result<(), tokio_postgres::Error> {
    let pos_id: Option<i64> = tx
        .query_opt("select id from points_of_sale where lower(name) = lower($1)", &[&pos])
        .await?
        .map(|row| row.get(0));
    tx.execute(
        "insert into users (username, password_hash, role, pos_id) values ($1, $2, $3, $4)",
        &[&username, &password_hash, &role, &pos_id],
    )
    .await
    .map(drop)
}

#[instrument(level = "debug", skip(tx))]
pub async fn add_category(tx: &Transaction<'_>, name: &str, icon: &str) -> Result<(), tokio_postgres::Error> {
    tx.execute("insert into categories (name, icon) values ($1, $2) on conflict do nothing", &[&name, &icon])
        .await
        .map(drop)
}

/// A product in the category of that name, its points value its price at the redemption rate.
#[instrument(level = "debug", skip(tx))]
pub async fn add_product(
    tx: &Transaction<'_>,
    code: &str,
    name: &str,
    description: &str,
    price: i64,
    category: &str,
) -> Result<(), tokio_postgres::Error> {
    tx.execute(
        "insert into products (code, name, description, price, points_value, category_id) \
         select $1, $2, $3, $4::bigint, ceil($4::bigint * s.redemption_rate)::bigint, \
                (select id from categories where lower(name) = lower($5)) \
         from settings s on conflict do nothing",
        &[&code, &name, &description, &price, &category],
    )
    .await
    .map(drop)
}

/// A customer, unless one has the document already; `birthdate` as `YYYY-MM-DD`.
#[instrument(level = "debug", skip(tx))]
pub async fn add_customer(
    tx: &Transaction<'_>,
    document: &str,
    name: &str,
    email: Option<&str>,
    phone: &str,
    birthdate: &str,
) -> Result<(), tokio_postgres::Error> {
    tx.execute(
        "insert into customers (document, name, email, phone, birthdate) \
         values ($1, $2, $3, $4, $5::text::date) on conflict (document) do nothing",
        &[&document, &name, &email, &phone, &birthdate],
    )
    .await
    .map(drop)
}

#[instrument(level = "debug", skip(tx))]
pub async fn add_generated_customers(tx: &Transaction<'_>, count: i32) -> Result<(), tokio_postgres::Error> {
    tx.execute(GENERATED_CUSTOMERS_SQL, &[&count]).await.map(drop)
}

/// Records the demo customers' authorizations, which the demo brings in at once: channel
/// `import`, by `system`, to the notice in force (version 1 written first if the company has
/// none); every one grants `loyalty`, about six in ten `marketing`. Customers that have an
/// authorization keep it.
#[instrument(level = "debug", skip(tx))]
pub async fn add_consents(tx: &Transaction<'_>, prefix: &Prefix) -> Result<(), tokio_postgres::Error> {
    let name: String = tx
        .query_opt("select name from platform.companies where prefix = $1", &[&prefix.as_str()])
        .await?
        .map(|row| row.get(0))
        .unwrap_or_default();
    let (body, purposes) = privacy::store::first_notice(&name);
    tx.execute(privacy::store::FIRST_NOTICE, &[&body, &purposes]).await?;
    tx.execute(
        "insert into customer_consents (customer_id, notice_version, purpose, granted, channel, recorded_by) \
         select c.id, n.version, p->>'key', \
                p->>'key' = 'loyalty' or (2147483647 & hashtext('m' || c.document)) % 10 < 6, 'import', 'system' \
         from customers c \
         cross join (select version, purposes from privacy_notices order by version desc limit 1) n \
         cross join jsonb_array_elements(n.purposes) p \
         where not exists (select 1 from customer_consents k where k.customer_id = c.id) \
         order by c.id",
        &[],
    )
    .await
    .map(drop)
}

/// Writes `days` of history (see [`HISTORY_SQL`]).
#[instrument(level = "debug", skip(tx))]
pub async fn write_history(tx: &Transaction<'_>, days: i32) -> anyhow::Result<()> {
    for statement in HISTORY_SQL {
        let days: &[&(dyn tokio_postgres::types::ToSql + Sync)] = &[&days];
        let params = if statement.contains("$1") { days } else { &[] };
        tx.execute(*statement, params).await.map_err(|e| anyhow::anyhow!("{e}: {statement}"))?;
    }
    Ok(())
}

/// Made-up customers, from a fixed mix of common Colombian names: documents are distinct by
/// construction (8-digit cédulas for some, 10-digit for the rest), seven in ten have an e-mail,
/// nine in ten a birthdate. `$1`: how many.
const GENERATED_CUSTOMERS_SQL: &str = "
insert into customers (document, name, email, phone, birthdate)
select document, name,
       case when (2147483647 & hashtext('e' || g)) % 10 < 7
            then translate(lower(first || '.' || last1), 'áéíóúñü ', 'aeiounu') || g || '@example.com' end,
       '3' || (100000000 + (2147483647 & hashtext('p' || g)) % 899999999)::text,
       case when (2147483647 & hashtext('b' || g)) % 10 < 9 then date '1950-01-01' + (2147483647 & hashtext('b' || g)) % 20000 end
from (
  select g,
         case when g % 3 = 0 then (10000000 + g * 211111)::text else (1000000000 + g * 104729)::text end as document,
         (array['Andrés','Camila','Santiago','Valentina','Sebastián','Daniela','Mateo','Mariana','Nicolás','Laura',
                'Alejandro','Sofía','Juan Pablo','Isabella','Felipe','Natalia','Diego','Paula','Carlos','Juliana',
                'Jorge','Catalina','Luis','Manuela','Miguel','Gabriela','David','Sara','Óscar','Lucía',
                'Hernán','Marta','Ricardo','Claudia','Fernando','Diana','Jaime','Patricia','Mauricio','Carolina']
         )[1 + (2147483647 & hashtext('f' || g)) % 40] as first,
         (array['Rodríguez','Gómez','González','Martínez','García','López','Hernández','Sánchez','Ramírez','Pérez',
                'Díaz','Muñoz','Rojas','Moreno','Jiménez','Vargas','Castro','Gutiérrez','Ortiz','Álvarez',
                'Ruiz','Suárez','Torres','Romero','Quintero','Restrepo','Cárdenas','Ospina','Mejía','Zapata',
                'Salazar','Cardona','Arango','Valencia','Correa','Osorio','Giraldo','Henao','Londoño','Patiño']
         )[1 + (2147483647 & hashtext('l' || g)) % 40] as last1,
         (array['Rodríguez','Gómez','González','Martínez','García','López','Hernández','Sánchez','Ramírez','Pérez',
                'Díaz','Muñoz','Rojas','Moreno','Jiménez','Vargas','Castro','Gutiérrez','Ortiz','Álvarez',
                'Ruiz','Suárez','Torres','Romero','Quintero','Restrepo','Cárdenas','Ospina','Mejía','Zapata']
         )[1 + (2147483647 & hashtext('m' || g)) % 30] as last2
  from generate_series(1, $1::int) g
) made, lateral (select first || ' ' || last1 || ' ' || last2 as name) named
on conflict (document) do nothing";

/// The demo's history, written in one go (set-based, so seconds for thousands of rows) and kept
/// to the ledger's rules (docs/points.md, 'How correctness is kept'): every accreditation has
/// its batch, redemptions and the expiration take from the oldest batches first and record it,
/// the void has its cancellation, and each balance is the sum of its ledger. `$1`: days of
/// history. Purchases fall on shop hours in the company's time zone, at the point of sale of the
/// cashier who rang them up; about half the regulars redeem a product (or points) they can
/// afford; one purchase typed with a zero too many is voided by the supervisor and rung up
/// again; one customer's points from more than a year ago expired under the `fifo` policy.
const HISTORY_SQL: &[&str] = &[
    "create temporary table demo_plan (
        key text primary key, at timestamptz not null, type text not null, points bigint not null,
        customer_id bigint not null, cashier_id bigint, cashier_username text, pos_id bigint,
        invoice_amount bigint, redeemed_value bigint, invoice_reference text,
        product_id bigint, is_voided boolean not null default false, voided_by text, voided_at timestamptz,
        original_key text, id bigint) on commit drop",
    "create temporary table demo_take (key text not null, batch_key text not null, points bigint not null) on commit drop",
    // Purchases: 1 to 12 per customer over the period, none in the future; two customers are
    // left for the void and the expiration below.
    "insert into demo_plan (key, at, type, points, customer_id, cashier_id, cashier_username, pos_id, invoice_amount)
     select 'a' || c.id || '-' || j, at, 'accreditation',
            floor(amount * s.points_per_peso * s.campaign_multiplier)::bigint, c.id, u.id, u.username, u.pos_id, amount
     from customers c
     cross join settings s
     cross join lateral generate_series(1, 1 + (2147483647 & hashtext('k' || c.id)) % 12) j
     cross join lateral (select
         ((date_trunc('day', now() at time zone s.time_zone)
           - ((2147483647 & hashtext('d' || c.id || '-' || j)) % ($1::int + 1)) * interval '1 day'
           + interval '8 hours' + ((2147483647 & hashtext('t' || c.id || '-' || j)) % 720) * interval '1 minute')
          at time zone s.time_zone) as at,
         (15000 + ((2147483647 & hashtext('v' || c.id || '-' || j)) % 336) * 1000
                + ((2147483647 & hashtext('w' || c.id || '-' || j)) % 10) * 100)::bigint as amount) made
     cross join lateral (select id, username, pos_id from users
                         where role <> 'admin' and is_active
                         order by (2147483647 & hashtext('u' || c.id || '-' || j || '-' || id)), id limit 1) u
     where c.is_active and made.at < now() - interval '10 minutes'
       and c.document not in ('79888777', '1020304050')
       and floor(amount * s.points_per_peso * s.campaign_multiplier) > 0",
    // A purchase rung up as 1.250.000 instead of 125.000 yesterday, voided four minutes later by
    // the supervisor and rung up again with the same invoice.
    "insert into demo_plan (key, at, type, points, customer_id, cashier_id, cashier_username, pos_id,
                            invoice_amount, is_voided, voided_by, voided_at)
     select key, at, 'accreditation', floor(amount * s.points_per_peso * s.campaign_multiplier)::bigint,
            c.id, u.id, u.username, u.pos_id, amount, key = 'void-wrong', case when key = 'void-wrong' then 'supervisor' end,
            case when key = 'void-wrong' then at + interval '4 minutes' end
     from customers c
     cross join settings s
     cross join (select id, username, pos_id from users where username = 'cajero') u
     cross join lateral (values
         ('void-wrong', 1250000::bigint,
          ((date_trunc('day', now() at time zone s.time_zone) - interval '1 day' + interval '11 hours 15 minutes') at time zone s.time_zone)),
         ('void-right', 125000::bigint,
          ((date_trunc('day', now() at time zone s.time_zone) - interval '1 day' + interval '11 hours 20 minutes') at time zone s.time_zone))
     ) v(key, amount, at)
     where c.document = '1020304050'",
    "insert into demo_plan (key, at, type, points, customer_id, cashier_id, cashier_username, pos_id, original_key)
     select 'void-cancel', o.voided_at, 'cancellation', -o.points, o.customer_id, u.id, u.username, o.pos_id, o.key
     from demo_plan o cross join (select id, username from users where username = 'supervisor') u
     where o.key = 'void-wrong'",
    "insert into demo_take (key, batch_key, points) select 'void-cancel', key, points from demo_plan where key = 'void-wrong'",
    // Points earned more than a year ago and expired by the daily run 365 days later.
    "insert into demo_plan (key, at, type, points, customer_id, cashier_id, cashier_username, pos_id, invoice_amount)
     select 'old', now() - interval '390 days', 'accreditation', floor(185000 * s.points_per_peso)::bigint,
            c.id, u.id, u.username, u.pos_id, 185000
     from customers c cross join settings s
     cross join (select id, username, pos_id from users where username = 'cajero') u
     where c.document = '79888777' and floor(185000 * s.points_per_peso) > 0",
    "insert into demo_plan (key, at, type, points, customer_id, cashier_username)
     select 'expired', at + interval '365 days', 'expiration', -points, customer_id, 'system'
     from demo_plan where key = 'old'",
    "insert into demo_take (key, batch_key, points) select 'expired', 'old', points from demo_plan where key = 'old'",
    "insert into demo_plan (key, at, type, points, customer_id, cashier_id, cashier_username, pos_id, invoice_amount)
     select 'recent-' || j, now() - (j * 9 + 2) * interval '1 day', 'accreditation',
            floor(amount * s.points_per_peso)::bigint, c.id, u.id, u.username, u.pos_id, amount
     from customers c cross join settings s
     cross join (select id, username, pos_id from users where username = 'cajero2') u
     cross join lateral (values (1, 64000::bigint), (2, 212500::bigint), (3, 98700::bigint)) v(j, amount)
     where c.document = '79888777' and floor(amount * s.points_per_peso) > 0",
    // Redemptions: a regular redeems at the till right after a purchase (the middle one), a
    // product worth no more than the points earned before it, or else half of those points.
    "with regular as (
        select customer_id, key, at, cashier_id, cashier_username, pos_id,
               row_number() over (partition by customer_id order by at, key) as n,
               count(*) over (partition by customer_id) as purchases,
               sum(points) over (partition by customer_id order by at, key) as earned
        from demo_plan where type = 'accreditation' and key like 'a%'
     ), chosen as (
        select r.*, r.at + (5 + (2147483647 & hashtext('r' || r.customer_id)) % 20) * interval '1 minute' as redeemed_at
        from regular r
        where r.purchases >= 3 and r.n = (r.purchases + 1) / 2 and (2147483647 & hashtext('x' || r.customer_id)) % 2 = 0
     )
     insert into demo_plan (key, at, type, points, customer_id, cashier_id, cashier_username, pos_id,
                            redeemed_value, product_id)
     select 'r' || c.customer_id, c.redeemed_at, 'redemption',
            -coalesce(p.points_value, (c.earned / 2 / 100) * 100), c.customer_id, c.cashier_id, c.cashier_username, c.pos_id,
            coalesce(p.price, floor((c.earned / 2 / 100) * 100 / s.redemption_rate)::bigint), p.id
     from chosen c cross join settings s
     left join lateral (select id, price, points_value from products
                        where is_active and points_value > 0 and points_value <= c.earned
                        order by (2147483647 & hashtext('q' || c.customer_id || '-' || id)), id limit 1) p on true
     where c.redeemed_at < now() - interval '5 minutes'
       and (p.id is not null or c.earned >= 200)",
    // Each redemption takes from the batches earned before it, oldest first.
    "insert into demo_take (key, batch_key, points)
     select r.key, b.key, least(b.points, -r.points - b.before)
     from demo_plan r
     join lateral (select a.key, a.points,
                          coalesce(sum(a.points) over (order by a.at, a.key rows between unbounded preceding and 1 preceding), 0) as before
                   from demo_plan a
                   where a.customer_id = r.customer_id and a.type = 'accreditation' and not a.is_voided and a.at < r.at) b
       on b.before < -r.points
     where r.type = 'redemption'",
    // Invoice references and ids in the order things happened.
    "with ordered as (
        select key, row_number() over (order by at, key) as n from demo_plan
     ), base as (select nextval(pg_get_serial_sequence('transactions', 'id')) as first)
     update demo_plan p set id = base.first + o.n - 1,
            invoice_reference = case when p.type = 'accreditation' then 'FV-' || to_char(10000 + o.n, 'FM000000') end
     from ordered o, base where o.key = p.key",
    "update demo_plan p set invoice_reference = w.invoice_reference
     from demo_plan w where p.key = 'void-right' and w.key = 'void-wrong'",
    "update demo_plan c set invoice_reference = o.invoice_reference from demo_plan o where c.original_key = o.key",
    "select setval(pg_get_serial_sequence('transactions', 'id'), (select max(id) from demo_plan))",
    // The ledger keeps the facts (kind and figures, no sentence) and each posting's balances.
    "insert into transactions (id, created_at, type, points, customer_id, cashier_id, cashier_username, pos_id,
                               invoice_amount, redeemed_value, invoice_reference, product_id,
                               is_voided, voided_by, voided_at, original_transaction_id, invoice_key,
                               balance_before, balance_after)
     select p.id, p.at, p.type, p.points, p.customer_id, p.cashier_id, p.cashier_username, p.pos_id,
            p.invoice_amount, p.redeemed_value, p.invoice_reference, p.product_id,
            p.is_voided, p.voided_by, p.voided_at, o.id,
            case when p.type = 'accreditation' then upper(p.invoice_reference) end,
            p.balance_after - p.points, p.balance_after
     from (select *, sum(points) over (partition by customer_id order by id) as balance_after from demo_plan) p
     left join demo_plan o on o.key = p.original_key
     order by p.id",
    "insert into point_batches (customer_id, transaction_id, earned_at, points, remaining)
     select a.customer_id, a.id, a.at, a.points,
            a.points - coalesce((select sum(t.points) from demo_take t where t.batch_key = a.key), 0)
     from demo_plan a where a.type = 'accreditation' and a.points > 0
     order by a.id",
    "insert into batch_movements (transaction_id, batch_id, points)
     select p.id, b.id, t.points
     from demo_take t join demo_plan p on p.key = t.key
     join demo_plan a on a.key = t.batch_key
     join point_batches b on b.transaction_id = a.id
     where t.points > 0",
    "insert into expiration_runs (run_at, run_date, trigger, actor, points, customers)
     select p.at, (p.at at time zone s.time_zone)::date, 'daily', 'system', -p.points, 1
     from demo_plan p cross join settings s where p.key = 'expired'",
    "update customers c set points = l.points, last_activity_at = l.last_active,
            created_at = least(c.created_at, l.first_at - interval '3 minutes')
     from (select customer_id, sum(points) as points, min(at) as first_at,
                  max(at) filter (where type in ('accreditation', 'redemption') and not is_voided) as last_active
           from demo_plan group by customer_id) l
     where l.customer_id = c.id",
    "delete from daily_figures",
];
