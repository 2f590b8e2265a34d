-- Products: an active product is worth at least 1 point, so every product the till offers can be
-- redeemed. Products already active at 0 points are deactivated (the admin sets a value and
-- reactivates them from the list's inactive records).
update products set is_active = false where is_active and points_value < 1;
alter table products add constraint products_active_points check (not is_active or points_value >= 1);
