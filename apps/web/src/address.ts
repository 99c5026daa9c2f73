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
