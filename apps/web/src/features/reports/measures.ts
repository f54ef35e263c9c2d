import type { ReportMeasure } from '@sundial/core';
import { t } from './texts';

/** A measure's name in the reports' words ("Tracked time", "Billable amount"). */
export const measureLabel = (m: ReportMeasure) => t.measures[m];
