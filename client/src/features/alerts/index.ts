// What other features use of the alerts screen: the dashboard's count of new alerts.
export { NewAlertsCard } from './NewAlertsCard';
