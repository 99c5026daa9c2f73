import type { ReaderPlace } from './file-links.js';

/** Where the page is, as its address names it: `#space=/path&session=ID` (a deep link). */
export interface Place {
  space?: string | undefined;
  session?: string | undefined;
}

/** The space and session the address names (`repa web --space` names the space). */
export function placeFromAddress(): Place {
  const params = new URLSearchParams(location.hash.slice(1));
  const value = (name: string) => {
    const found = params.get(name);
    return found === null || found === '' ? undefined : found;
  };
  return { space: value('space'), session: value('session') };
}

/** Names the open space and session in the address, so a reload returns to them. */
export function writeAddress(place: Place): void {
  const params = new URLSearchParams();
  if (place.space) params.set('space', place.space);
  if (place.space && place.session) params.set('session', place.session);
  const hash = params.toString();
  const next = hash === '' ? location.pathname : `#${hash}`;
  if (`#${hash}` !== location.hash) history.replaceState(null, '', next);
}

/** The place a deep link names (`#…&doc=notes/a.md&line=3`), if any. */
function readerPlaceFromAddress(): ReaderPlace | undefined {
  const params = new URLSearchParams(location.hash.slice(1));
  const path = params.get('doc');
  if (!path) return undefined;
  const number = (name: string) => {
    const value = Number(params.get(name));
    return Number.isInteger(value) && value > 0 ? value : undefined;
  };
  return { path, line: number('line'), page: number('page') };
}

// Read when the page loads, before the address is rewritten for the space and session.
let placeAtLoad = readerPlaceFromAddress();

/** The place the page's address named when it loaded, once (the reader opens there). */
export function takePlaceAtLoad(): ReaderPlace | undefined {
  const place = placeAtLoad;
  placeAtLoad = undefined;
  return place;
}
