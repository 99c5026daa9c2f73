export { type AcceptedCard, type AcceptedCards, acceptCards } from './accept-cards.js';
export {
  type CardSource,
  formatCardComment,
  isCardId,
  newCardId,
  parseCardComment,
} from './card-comment.js';
export { type CardSides, formatCard } from './card-markdown.js';
export {
  type DraftRequest,
  draftRequestText,
  MAX_DRAFTED_CARDS,
  type Passage,
  parseDraftRequest,
  parsePassage,
  passageReadArguments,
  passageText,
} from './draft-request.js';
export { type DraftedCards, type DraftRun, draftedCards } from './drafted-cards.js';
