// Every module's tables, for drizzle-kit and the typed client. Modules own their tables;
// this index only gathers them.
export * from '../modules/sites/tables';
export * from '../modules/content/tables';
export * from '../modules/storage/tables';
export * from '../modules/analytics/tables';
export * from '../modules/account/tables';
export * from '../modules/auth/tables';
export * from '../modules/rate-limit/tables';
export * from '../modules/messaging/tables';
export * from '../modules/verification/tables';
export * from '../modules/responsible-gaming/tables';
export * from '../modules/social/tables';
export * from '../modules/wallet/tables';
export * from '../modules/cashier/tables';
export * from '../modules/games/tables';
export * from '../modules/game-rounds/tables';
export * from '../modules/jobs/tables';
export * from '../modules/payments/sandbox/tables';
