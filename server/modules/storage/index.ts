/** Small key-value storage per visitor or player (storage.* methods) and for the system. */
export { createStorageService, STORAGE_LIMITS, type StorageService } from './service';
export { storageMethods } from './methods';
