/**
 * The error catalogue of spec §8, defined once and shared by the server (which answers with it)
 * and the client (which maps it to pages and messages). A type outside this list never leaves
 * the server.
 */
export const ERROR_TYPES = [
  'UnknownErrorException',
  'ApplicationDisabledException',
  'MethodNotFoundException',
  'AuthorizationException',
  'InvalidRequestException',
  'InternalServerErrorException',
  'AccessDeniedException',
  'UserDeletedException',
  'UserBannedException',
  'UserNeedDepositException',
  'UserNeedProfileDataException',
  'UserNeedConfirmContactException',
  'ApplicationUnavailableException',
  'InvalidParameterException',
  'TooManyRequestsException',
  'BillingServiceErrorException',
  'BillingTransactionDeclinedException',
  'BillingUnavailableException',
  'BillingDepositLimitExceededException',
  'WithdrawalDeclinedException',
  'WithdrawalLimitsExceededException',
  'WithdrawalLimitsPeriodExceededException',
  'KycUserProfileException',
  'KycWithdrawalException',
  'StorageQuotaExceededException',
  'SumsubVerificationRequiredException',
  'RequisitesOnVerificationException',
  'RequisitesValidationRequiredException',
  'RequisitesFraudulentException',
] as const;

export type ErrorType = (typeof ERROR_TYPES)[number];

/**
 * HTTP status of each error type (architecture §4). A Record, so adding a type to the
 * catalogue without choosing its status is a compile error.
 */
export const ERROR_STATUS: Record<ErrorType, number> = {
  UnknownErrorException: 500,
  ApplicationDisabledException: 503,
  MethodNotFoundException: 404,
  AuthorizationException: 401,
  InvalidRequestException: 400,
  InternalServerErrorException: 500,
  AccessDeniedException: 403,
  UserDeletedException: 403,
  UserBannedException: 403,
  UserNeedDepositException: 409,
  UserNeedProfileDataException: 409,
  UserNeedConfirmContactException: 409,
  ApplicationUnavailableException: 503,
  InvalidParameterException: 400,
  TooManyRequestsException: 429,
  BillingServiceErrorException: 409,
  BillingTransactionDeclinedException: 409,
  BillingUnavailableException: 503,
  BillingDepositLimitExceededException: 409,
  WithdrawalDeclinedException: 409,
  WithdrawalLimitsExceededException: 409,
  WithdrawalLimitsPeriodExceededException: 409,
  KycUserProfileException: 409,
  KycWithdrawalException: 409,
  StorageQuotaExceededException: 409,
  SumsubVerificationRequiredException: 409,
  RequisitesOnVerificationException: 409,
  RequisitesValidationRequiredException: 400,
  RequisitesFraudulentException: 403,
};

export type ErrorData = Record<string, unknown>;

/** The error half of the API envelope: `{"error": {...}}`. */
export interface ErrorBody {
  type: ErrorType;
  message: string;
  error_data?: ErrorData;
}

export function isErrorType(value: unknown): value is ErrorType {
  return typeof value === 'string' && (ERROR_TYPES as readonly string[]).includes(value);
}

/**
 * An error answer of the product API. Thrown by server services and rethrown by the client,
 * so both sides speak of the same thing.
 */
export class ApiError extends Error {
  readonly type: ErrorType;
  readonly status: number;
  readonly errorData: ErrorData | undefined;

  constructor(type: ErrorType, message: string, errorData?: ErrorData, status?: number) {
    super(message);
    this.name = 'ApiError';
    this.type = type;
    this.status = status ?? ERROR_STATUS[type];
    this.errorData = errorData;
  }

  toBody(): ErrorBody {
    return this.errorData
      ? { type: this.type, message: this.message, error_data: this.errorData }
      : { type: this.type, message: this.message };
  }

  static fromBody(body: ErrorBody, status?: number): ApiError {
    const type = isErrorType(body.type) ? body.type : 'UnknownErrorException';
    return new ApiError(type, body.message ?? '', body.error_data, status);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
