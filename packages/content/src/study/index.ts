export {
  type CardSource,
  formatCardComment,
  isCardId,
  newCardId,
  parseCardComment,
} from './card-comment.js';
