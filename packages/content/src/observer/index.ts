export { checkObserved } from './check-observed.js';
export {
  ContentObserver,
  type ContentObserverOptions,
  type Observation,
} from './content-observer.js';
