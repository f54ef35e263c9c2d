/** What other features place from the reports: the budget watch list (the dashboard shows it). */
export { BudgetWatch } from './components/BudgetWatch';
