export {
  type AddMaterialInput,
  addMaterial,
  listMaterials,
  type MaterialType,
  removeMaterial,
} from './material-grants.js';
