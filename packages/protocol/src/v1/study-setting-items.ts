import { z } from 'zod';
import { item, type SettingItem } from './setting-item.js';

/** A scheduler step: a number and `m`, `h` or `d` (`1m`, `10m`, `1d`). */
const stepSchema = z.string().regex(/^[0-9]+(\.[0-9]+)?[mhd]$/u);

/** The `study.*` items: the options of the FSRS scheduler (spec R102), read per space. */
export const STUDY_SETTING_ITEMS: readonly SettingItem[] = [
  item({
    key: 'study.retention',
    label: 'Target recall',
    description:
      'The probability of recalling a card that the scheduler aims at when the card comes due ' +
      "(FSRS's desired retention): higher means shorter intervals and more reviews. Read per " +
      'space. Default 0.9.',
    schema: z.number().min(0.7).max(0.99),
    defaultValue: 0.9,
  }),
  item({
    key: 'study.maximumInterval',
    label: 'Longest interval (days)',
    description: 'The longest interval between two reviews of a card, in days. Default 36500.',
    schema: z.number().int().min(1).max(36_500),
    defaultValue: 36_500,
  }),
  item({
    key: 'study.fuzz',
    label: 'Spread intervals',
    description:
      'Spread intervals of a day or more a little at random, so cards learned together do not ' +
      'stay together. Default on.',
    schema: z.boolean(),
    defaultValue: true,
  }),
  item({
    key: 'study.shortTerm',
    label: 'Steps within the day',
    description:
      'Take new and forgotten cards through the learning steps within the day before longer ' +
      'intervals. Default on.',
    schema: z.boolean(),
    defaultValue: true,
  }),
  item({
    key: 'study.learningSteps',
    label: 'Learning steps',
    description:
      'The steps of a new card, each a number and `m`, `h` or `d`. Default `["1m", "10m"]`.',
    schema: z.array(stepSchema).max(10),
    defaultValue: ['1m', '10m'],
    values: 'a list of steps like 1m, 10m, 1d',
  }),
  item({
    key: 'study.relearningSteps',
    label: 'Relearning steps',
    description: 'The steps of a card rated Again in review. Default `["10m"]`.',
    schema: z.array(stepSchema).max(10),
    defaultValue: ['10m'],
    values: 'a list of steps like 10m, 1d',
  }),
];
