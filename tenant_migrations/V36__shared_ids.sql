-- One sequence for the ids of the tables a sale never inserts into: a company's points of sale,
-- accounts, catalog, program runs, audit trail, alerts, data requests, consents, keys and
-- endpoints. A sequence is a relation of its own (a file, its catalog rows, nine of them in
-- pg_attribute): eleven of them were an eighth of a company's catalog rows (docs/performance.md,
-- "Fewer relations a company"). Their ids stay unique in each table and only grow, though no
-- longer one after the other. The ledger, the batches, the customers and the webhook outbox keep
-- sequences of their own: a receipt's transaction number stays one after the other.
create sequence record_ids;

-- Past every id any of them gave out or any table holds, so that no table meets an id it holds.
select setval('record_ids', last)
from (select greatest(
        (select max(last_value) from pg_sequences
         where schemaname = current_schema()
           and sequencename in ('points_of_sale_id_seq', 'users_id_seq', 'categories_id_seq', 'products_id_seq',
                                'expiration_runs_id_seq', 'audit_log_id_seq', 'alerts_id_seq',
                                'data_requests_id_seq', 'customer_consents_id_seq', 'api_keys_id_seq',
                                'webhook_endpoints_id_seq')),
        (select max(id) from points_of_sale), (select max(id) from users), (select max(id) from categories),
        (select max(id) from products), (select max(id) from expiration_runs), (select max(id) from audit_log),
        (select max(id) from alerts), (select max(id) from data_requests), (select max(id) from customer_consents),
        (select max(id) from api_keys), (select max(id) from webhook_endpoints)) as last) given
where last is not null;

alter table points_of_sale alter column id set default nextval('record_ids');
drop sequence points_of_sale_id_seq;
alter table users alter column id set default nextval('record_ids');
drop sequence users_id_seq;
alter table categories alter column id set default nextval('record_ids');
drop sequence categories_id_seq;
alter table products alter column id set default nextval('record_ids');
drop sequence products_id_seq;
alter table expiration_runs alter column id set default nextval('record_ids');
drop sequence expiration_runs_id_seq;
alter table audit_log alter column id set default nextval('record_ids');
drop sequence audit_log_id_seq;
alter table alerts alter column id set default nextval('record_ids');
drop sequence alerts_id_seq;
alter table data_requests alter column id set default nextval('record_ids');
drop sequence data_requests_id_seq;
alter table customer_consents alter column id set default nextval('record_ids');
drop sequence customer_consents_id_seq;
alter table api_keys alter column id set default nextval('record_ids');
drop sequence api_keys_id_seq;
alter table webhook_endpoints alter column id set default nextval('record_ids');
drop sequence webhook_endpoints_id_seq;
