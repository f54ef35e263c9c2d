/** The report pages, one chunk: they share the frame, the filter bar and the tables. */
export { DetailedPage } from './DetailedPage';
export {
  ByDaysPage,
  PeopleByDaysAndTaskPage,
  PeopleByDaysPage,
  PeopleByProjectsPage,
  PeopleByTaskPage,
} from './MatrixPages';
export { CustomPage, SummaryPage } from './SummaryPage';
