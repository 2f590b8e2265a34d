// The till: accrediting and redeeming points, at full screen or in the dashboard's quick panels.
// Other features use it through this file only.
export { AccreditForm } from '../../components/operations/AccreditForm';
export { RedeemForm } from '../../components/operations/RedeemForm';
export { canReprint, canVoid, voidNeedsSupervisor } from '../../lib/points';
export {
  normalizeTransaction,
  useCreateCustomerMutation,
  useGetRedeemableProductsQuery,
  type CustomerInput,
} from '../../app/pointsApi';
