//! Data access of the points engine: every SQL statement of the area, lower-case and with
//! parameters only. Functions run inside the caller's tenant transaction (`search_path` is the
//! company's schema) and never commit.
//!
//! One file per concern; callers use the names re-exported here (`store::lock_customer`). The
//! `pub` statement constants are those of a sale: prepared together in one round trip
//! ([`crate::db::pipeline`]), and at start-up ([`crate::points::warm`]).

mod alerts;
mod approvers;
mod balance;
mod batches;
mod dashboard;
mod expiration;
mod idempotency;
mod ledger;
mod products;
mod report;
mod suppression;
mod velocity;

pub use alerts::{
    alert, busy_customer_days, cashier_repeats, lock_alert_scan, new_alert_count, reassigned_invoices,
    refunds_after_redemption, search_alerts, set_alert_scan, set_alert_status, transactions_by_ids, upsert_alert,
    AlertFilter, AlertRow, CashierRepeat, CustomerDay, FoundAlert, ReassignedInvoice, RefundAfterRedemption,
    ScanWindow, MAX_ALERT_TRANSACTIONS,
};
pub use approvers::approver_password_hash;
pub use balance::{
    customer_for_preview, has_accreditation, lock_customer, post_to_balance, LockedCustomer, CUSTOMER_FOR_PREVIEW,
    HAS_ACCREDITATION, LOCK_CUSTOMER, POST_TO_BALANCE,
};
pub use batches::{
    batch_of, give_back_to_batches, insert_batch, open_batches, take_from_batches, EarnedBatch, INSERT_BATCH,
    OPEN_BATCHES, TAKE_FROM_BATCHES,
};
pub use dashboard::{cache_days, cached_days, customer_totals, daily_figures, CustomerTotals, DayFigures};
pub use expiration::{
    audit_as_system, customers_with_batches_due, daily_run_exists, expiring_between, inactive_between,
    inactive_customers_with_points, insert_expiration_run, lock_expiration,
};
pub use idempotency::{
    claim_idempotency_key, delete_idempotency_keys_before, save_answer, stored_answer, StoredAnswer, CLAIM_KEY,
    SAVE_ANSWER,
};
pub use ledger::{
    all_transactions, insert_transaction, insert_transaction_id, lock_void_target, mark_voided, returns_of,
    void_target, Inserted, NewTransaction, VoidTarget, INSERT_TRANSACTION,
};
pub use products::{product, RedeemableProduct, PRODUCT};
pub use report::{
    search_transactions, transaction_totals, ReportTotals, TransactionFilter, TransactionMatches, REPORT_COUNT_AHEAD,
};
pub use suppression::{
    anonymise_customer, anonymous_label, customer_data_requests, customer_record, customer_transactions,
    delete_customer, delete_kept_answers, idle_customers, lock_personal, scrub_audit, scrub_data_requests,
    scrub_ledger_texts, CustomerRecord, Personal,
};
pub use velocity::{credited_between, set_approved_by};
