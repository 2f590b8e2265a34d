//! A new company's schema as a copy of a template: the schema `loyalty_tenant_template`, kept at
//! the newest tenant migration, is read from the catalog once per process into a script of DDL
//! (sequences, tables with their columns, defaults and constraints, indexes, foreign keys,
//! sequence ownership) and the template's rows (the default settings, the migration history).
//! A company is then created by running that script in one round trip and one transaction,
//! instead of the migrations' hundred round trips and a commit per migration
//! (`docs/performance.md`, "Provisioning").
//!
//! The script covers the kinds of object the tenant migrations make. If the template holds any
//! other kind (a view, a function, a trigger, a type, a partitioned table, a comment), reading
//! it fails and the company is built by running the migrations, as before. The API test
//! `tenancy::a_cloned_schema_is_what_the_migrations_make` compares the two from the catalog.

use anyhow::{bail, Context};
use tokio_postgres::Client;
use tracing::instrument;

use super::HISTORY_TABLE;
use crate::db::quote_ident;

/// The template's schema. Company schemas are all `tenant_<prefix>`, so no company can take it.
pub const TEMPLATE_SCHEMA: &str = "loyalty_tenant_template";

/// A new company's schema, as statements to run with `search_path` set to the new schema.
#[derive(Debug, Clone)]
pub struct Template {
    /// The tenant migration the template was at.
    pub version: i32,
    /// The DDL and the rows, in order; every name is unqualified.
    pub statements: Vec<String>,
    /// What gives the rows the time they are made at: each time column whose default is the
    /// time set to its default, and the migration history's times as refinery writes them.
    pub restamp: Vec<String>,
}

impl Template {
    /// The script that fills the new, empty schema `schema` (already created) inside a
    /// transaction the caller begins and commits.
    pub fn script(&self, schema: &str) -> String {
        Self::statements_in(schema, self.statements.iter().chain(&self.restamp))
    }

    /// The script that gives a copy made earlier (a spare schema, `platform::spares`) the
    /// times of now, as if it were made now; inside the caller's transaction too.
    pub fn restamp_script(&self, schema: &str) -> String {
        Self::statements_in(schema, &self.restamp)
    }

    fn statements_in<'a>(schema: &str, statements: impl IntoIterator<Item = &'a String>) -> String {
        let mut script = format!("set local search_path to {};\n", quote_ident(schema));
        for statement in statements {
            script.push_str(statement);
            script.push_str(";\n");
        }
        script
    }
}

/// What the template holds that the script would not reproduce; empty when it can be cloned.
#[instrument(level = "debug", skip_all)]
async fn unsupported(client: &Client) -> Result<Vec<String>, tokio_postgres::Error> {
    let rows = client
        .query(
            "select 'relation ' || relname || ' of kind ' || relkind::text from pg_class \
             where relnamespace = $1::text::regnamespace and relkind not in ('r', 'i', 'S', 't') \
             union all select 'function ' || proname from pg_proc where pronamespace = $1::text::regnamespace \
             union all select 'type ' || typname from pg_type t where typnamespace = $1::text::regnamespace \
               and typtype <> 'c' and not exists (select 1 from pg_class c where c.reltype = t.oid) \
               and not exists (select 1 from pg_type e where e.typarray = t.oid) \
             union all select 'trigger ' || tgname from pg_trigger g join pg_class c on c.oid = g.tgrelid \
               where c.relnamespace = $1::text::regnamespace and not g.tgisinternal \
             union all select 'rule ' || rulename from pg_rules where schemaname = $1 \
             union all select 'policy ' || policyname from pg_policies where schemaname = $1 \
             union all select 'comment on ' || c.relname from pg_description d join pg_class c on c.oid = d.objoid \
               and d.classoid = 'pg_class'::regclass where c.relnamespace = $1::text::regnamespace \
             union all select 'partitioned or inheriting table ' || c.relname from pg_inherits i \
               join pg_class c on c.oid = i.inhrelid where c.relnamespace = $1::text::regnamespace",
            &[&TEMPLATE_SCHEMA],
        )
        .await?;
    Ok(rows.iter().map(|r| r.get(0)).collect())
}

/// Reads the template's catalog into a [`Template`]. `client`'s `search_path` must be the
/// template alone, so that the catalog's functions print the template's names unqualified.
#[instrument(level = "debug", skip_all)]
pub async fn read(client: &Client, version: i32) -> anyhow::Result<Template> {
    client.batch_execute(&format!("set search_path to {}", quote_ident(TEMPLATE_SCHEMA))).await?;
    let not_copied = unsupported(client).await?;
    if !not_copied.is_empty() {
        bail!("the tenant template holds what a copy would miss: {}", not_copied.join(", "));
    }
    let mut statements = Vec::new();

    // Sequences of their own (serial columns'); an identity column makes its own.
    let sequences = client
        .query(
            "select format('create sequence %I as %s increment %s minvalue %s maxvalue %s start %s cache %s%s', \
               c.relname, format_type(s.seqtypid, null), s.seqincrement, s.seqmin, s.seqmax, s.seqstart, \
               s.seqcache, case when s.seqcycle then ' cycle' else '' end) \
             from pg_class c join pg_sequence s on s.seqrelid = c.oid \
             where c.relnamespace = $1::text::regnamespace and c.relkind = 'S' \
               and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass \
                 and d.objid = c.oid and d.deptype = 'i') \
             order by c.oid",
            &[&TEMPLATE_SCHEMA],
        )
        .await?;
    statements.extend(sequences.iter().map(|r| r.get::<_, String>(0)));

    // Tables, each with its columns and every constraint but the foreign keys.
    let tables = client
        .query(
            "select c.oid, c.relname, coalesce(array_to_string(c.reloptions, ', '), '') as options \
             from pg_class c where c.relnamespace = $1::text::regnamespace and c.relkind = 'r' order by c.oid",
            &[&TEMPLATE_SCHEMA],
        )
        .await?;
    let mut foreign_keys = Vec::new();
    let mut indexes = Vec::new();
    for table in &tables {
        let oid: u32 = table.get("oid");
        let name: String = table.get("relname");
        let options: String = table.get("options");
        let columns = client
            .query(
                "select format('%I %s', a.attname, format_type(a.atttypid, a.atttypmod)) \
                   || case when a.attcollation <> t.typcollation then ' collate ' || quote_ident(co.collname) else '' end \
                   || case a.attgenerated when 's' then ' generated always as (' || pg_get_expr(d.adbin, d.adrelid) || ') stored' \
                        else coalesce(' default ' || pg_get_expr(d.adbin, d.adrelid), '') end \
                   || case a.attidentity when 'a' then ' generated always as identity' \
                        when 'd' then ' generated by default as identity' else '' end \
                   || case when a.attnotnull then ' not null' else '' end \
                 from pg_attribute a join pg_type t on t.oid = a.atttypid \
                 left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum \
                 left join pg_collation co on co.oid = a.attcollation \
                 where a.attrelid = $1 and a.attnum > 0 and not a.attisdropped order by a.attnum",
                &[&oid],
            )
            .await?;
        let constraints = client
            .query(
                "select format('constraint %I %s', conname, pg_get_constraintdef(oid)), contype = 'f' \
                 from pg_constraint where conrelid = $1 order by contype = 'p' desc, oid",
                &[&oid],
            )
            .await?;
        let mut parts: Vec<String> = columns.iter().map(|r| r.get(0)).collect();
        for constraint in &constraints {
            let definition: String = constraint.get(0);
            if constraint.get::<_, bool>(1) {
                foreign_keys.push(format!("alter table {} add {definition}", quote_ident(&name)));
            } else {
                parts.push(definition);
            }
        }
        let with = if options.is_empty() { String::new() } else { format!(" with ({options})") };
        statements.push(format!("create table {} ({}){with}", quote_ident(&name), parts.join(", ")));

        // Indexes that no constraint made. The catalog prints them with the table qualified.
        let rows = client
            .query(
                "select pg_get_indexdef(i.indexrelid) from pg_index i \
                 where i.indrelid = $1 and not exists (select 1 from pg_constraint c \
                   where c.conindid = i.indexrelid and c.conrelid = i.indrelid and c.contype in ('p', 'u', 'x')) \
                 order by i.indexrelid",
                &[&oid],
            )
            .await?;
        let qualified = format!(" ON {TEMPLATE_SCHEMA}.");
        for row in &rows {
            let definition: String = row.get(0);
            if !definition.contains(&qualified) {
                bail!("unexpected index definition in the tenant template: {definition}");
            }
            indexes.push(definition.replacen(&qualified, " ON ", 1));
        }
    }
    statements.extend(indexes);
    statements.extend(foreign_keys);

    // Serial columns own their sequences, so that dropping the column drops the sequence.
    let owned = client
        .query(
            "select format('alter sequence %I owned by %I.%I', s.relname, t.relname, a.attname) \
             from pg_depend d join pg_class s on s.oid = d.objid join pg_class t on t.oid = d.refobjid \
             join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid \
             where d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass and d.deptype = 'a' \
               and s.relkind = 'S' and s.relnamespace = $1::text::regnamespace order by s.oid",
            &[&TEMPLATE_SCHEMA],
        )
        .await?;
    statements.extend(owned.iter().map(|r| r.get::<_, String>(0)));

    // The template's rows (the default settings, the migration history), as they are now, and
    // where each sequence stands. A column whose default is the time (`now()`) takes it anew
    // (`restamp`), after the copy.
    let mut restamp = Vec::new();
    for table in &tables {
        let oid: u32 = table.get("oid");
        let name: String = table.get("relname");
        let row = client
            .query_one(
                "select string_agg(quote_ident(a.attname), ', ' order by a.attnum), \
                   string_agg(quote_ident(a.attname) || ' = default', ', ' order by a.attnum) filter (where a.timed) \
                 from (select a.attname, a.attnum, coalesce(pg_get_expr(d.adbin, d.adrelid), '') \
                         ~* '(now\\(\\)|current_|timestamp\\(\\))' as timed \
                       from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum \
                       where a.attrelid = $1 and a.attnum > 0 and not a.attisdropped and a.attgenerated = '') a",
                &[&oid],
            )
            .await?;
        let columns: String = row.get(0);
        let timed: Option<String> = row.get(1);
        let table_name = quote_ident(&name);
        let rows = client
            .query_one(&format!("select coalesce(json_agg(t)::text, '') from {table_name} t"), &[])
            .await
            .with_context(|| format!("reading the template's rows of {name}"))?;
        let json: String = rows.get(0);
        if json.is_empty() {
            continue;
        }
        statements.push(format!(
            "insert into {table_name} ({columns}) overriding system value select {columns} \
             from json_populate_recordset(null::{table_name}, {})",
            quote_literal(&json)
        ));
        if let Some(timed) = timed {
            restamp.push(format!("update {table_name} set {timed}"));
        }
        if name == HISTORY_TABLE {
            // As refinery writes it, at the moment the company is made.
            restamp.push(format!(
                "update {table_name} set applied_on = \
                 to_char(now() at time zone 'utc', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')"
            ));
        }
    }
    let sequences = client
        .query(
            "select c.relname from pg_class c where c.relnamespace = $1::text::regnamespace and c.relkind = 'S' \
             order by c.oid",
            &[&TEMPLATE_SCHEMA],
        )
        .await?;
    for sequence in &sequences {
        let name = quote_ident(&sequence.get::<_, String>(0));
        let row = client.query_one(&format!("select last_value, is_called from {name}"), &[]).await?;
        let (last, called): (i64, bool) = (row.get(0), row.get(1));
        if called {
            statements.push(format!("select setval({}, {last}, true)", quote_literal(&name)));
        }
    }
    Ok(Template { version, statements, restamp })
}

fn quote_literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}
