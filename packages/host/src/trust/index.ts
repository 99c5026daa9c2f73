export { inspectSpaceForTrust } from './trust-preview.js';
export {
  checkTrustedPiFiles,
  type KnownToRepa,
  learningContextDigest,
  withheldInstructionFiles,
  withSkillsWithinSpace,
} from './trusted-pi-files.js';
