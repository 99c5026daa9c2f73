export {
  type AddMaterialInput,
  addMaterial,
  listMaterials,
  type MaterialInfo,
  type MaterialType,
  removeMaterial,
} from './material-grants.js';
