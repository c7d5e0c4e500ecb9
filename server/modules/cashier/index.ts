/** The cashier's public face (architecture §3): the service, its types, methods and settings. */
export { createCashierService, type CashierDeps, type CashierService, type PlayerRequest } from './service';
export { cashierMethods } from './methods';
export { cashierSettings, type CashierSettings } from './settings';
export { listPaymentMethods, methodView, type PaymentMethod } from './payment-methods';
