// Data holders' requests under Ley 1581 (docs/privacy.md). Other features use it through this file only.
export { DueRequestsPanel } from './DueRequestsPanel';
