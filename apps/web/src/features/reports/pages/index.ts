/** The report pages, one chunk: they share the frame, the filter bar and the tables. */
export { BillablePage, CostsPage, MarginPage, RevenuesPage } from './BudgetingPages';
export { DetailedPage } from './DetailedPage';
export { EstimatesPage } from './EstimatesPage';
export {
  ByDaysPage,
  PeopleByDaysAndTaskPage,
  PeopleByDaysPage,
  PeopleByProjectsPage,
  PeopleByTaskPage,
} from './MatrixPages';
export { CustomPage, SummaryPage } from './SummaryPage';
