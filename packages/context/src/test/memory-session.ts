import { SessionManager } from '@earendil-works/pi-coding-agent';

/** Source switches with the learning context on. */
export const ON = { learningContext: true };
/** Source switches with the learning context off. */
export const OFF = { learningContext: false };

/** A Pi session kept in memory. */
export function memory(): SessionManager {
  return SessionManager.inMemory('/tmp');
}
