/**
 * Profile and contacts (spec §3, §4, §7): getprofileinfo, saveProfileInfo, addcontact,
 * sendconfirmationtocontact, confirmContact, changeSubscription, changefakename, changelocale,
 * changepassword. Mutations answer 1 (spec §5).
 */
import { ApiError } from '#common/errors';
import { isLocale, localizePath } from '#common/locale';
import { unsubscribeKey, unsubscribeQuery } from './unsubscribe';
import { siteOrigin } from '../../web/site-origin';
import {
  fillMessage,
  validateAddress,
  validateCode,
  validateDate,
  validateEmail,
  validateFakename,
  validateName,
  validatePassword,
  validatePasswordLength,
  validatePhone,
  validatePostcode,
  validateRequired,
  type ValidationResult,
} from '#common/validators';
import type { ProfileFields } from '#common/contract';
import { defineMethod, type ApiContext } from '../../api/define';
import { invalidParameter, requireValid } from '#common/parameter-errors';
import { contactTypeOf, contactValue } from './service';

async function requireUser(ctx: ApiContext) {
  const user = await ctx.services.accounts.findUser(ctx.uid);
  if (!user) throw new ApiError('AuthorizationException', 'Sign in to continue');
  return user;
}

/** Profile fields of spec §3 and the validator each one uses. */
const PROFILE_VALIDATORS: Record<string, (value: string) => ValidationResult> = {
  first_name: validateName,
  last_name: validateName,
  birth_date: (value) => validateDate(value, { min: new Date(Date.UTC(1900, 0, 1)), max: adulthoodCutoff() }),
  document_number: (value) => validateRequired(value),
  country: (value) => validateRequired(value),
  country_code: (value) => (/^[A-Z]{2}$/.test(value) ? { isValid: true } : { isValid: false, errorType: 'wrongField' }),
  region: (value) => validateRequired(value),
  home_town: validateAddress,
  address: validateAddress,
  postcode: (value) => validatePostcode(value),
  sex: (value) => (['0', '1', '2'].includes(value) ? { isValid: true } : { isValid: false, errorType: 'wrongField' }),
};

/** Players must be 18 or older. */
function adulthoodCutoff(): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear() - 18, now.getUTCMonth(), now.getUTCDate()));
}

/** E-mails carry a signed link to stop news and offers to that address. */
async function unsubscribeFooter(ctx: ApiContext, contact: { type: string; value: string }): Promise<string> {
  if (contact.type !== 'email') return '';
  const t = await ctx.services.content.getTranslations(ctx.site.id, ctx.locale);
  const query = unsubscribeQuery(await unsubscribeKey(ctx.services.storage), ctx.uid, contact.value);
  return `\n\n${t['mail.footer.unsubscribe'] ?? 'Unsubscribe from news and offers:'} ${siteOrigin(ctx.site, ctx.url)}${localizePath('/unsubscribe', ctx.locale)}?${query}`;
}

async function findContact(ctx: ApiContext, value: string) {
  const row = await ctx.services.accounts.findContact(ctx.uid, value);
  if (!row)
    throw new ApiError('InvalidParameterException', 'Invalid parameter: contact', { field: 'contact', errorType: 'unknown' });
  return row;
}

/** A contact as stored (a phone in E.164, issue 15), refused with InvalidParameterException when it is neither an e-mail nor a phone. */
function normalizeContact(raw: string, phoneCountryCode?: string | null): { type: 'email' | 'phone'; value: string } {
  const text = raw.trim();
  const type = contactTypeOf(text);
  const value = contactValue(type === 'email' ? text.replace(/^\++/, '') : text, phoneCountryCode);
  requireValid('contact', type === 'email' ? validateEmail(value) : validatePhone(text));
  // The country code may make a number longer than E.164 allows.
  if (type === 'phone') requireValid('contact', validatePhone(value));
  return { type, value };
}

export const profileMethods = [
  defineMethod({
    name: 'account.getprofileinfo',
    handler: async (ctx) => {
      const user = await requireUser(ctx);
      const rows = await ctx.services.accounts.listContacts(user.id);
      const profile = user.profile as Record<string, string>;
      return {
        ...(Object.fromEntries(
          Object.keys(PROFILE_VALIDATORS).map((field) => [field, profile[field] ?? (field === 'sex' ? 0 : '')]),
        ) as ProfileFields),
        sex: Number(profile.sex ?? 0),
        fakename: user.fakename,
        contacts: rows.map((row) => ({
          type: row.type,
          contact: row.value,
          is_confirmed: row.isConfirmed,
          is_subscribed: row.isSubscribed,
          ...(row.type === 'phone' ? { phone_country_code: row.phoneCountryCode } : {}),
        })),
        document: { type: 'cpf', number: profile.document_number ?? '' },
      };
    },
  }),
  defineMethod({
    name: 'account.saveProfileInfo',
    handler: async (ctx, params) => {
      const user = await requireUser(ctx);
      const changes: Record<string, string> = {};
      for (const [field, validate] of Object.entries(PROFILE_VALIDATORS)) {
        const value = params[field];
        if (value === undefined) continue;
        // A field is text (a form) or a number (JSON, e.g. sex); anything else is a bad parameter, not a 500.
        if (typeof value !== 'string' && typeof value !== 'number') throw invalidParameter(field);
        const text = String(value).trim();
        requireValid(field, validate(text));
        changes[field] = text;
      }
      await ctx.services.accounts.saveProfile(user.id, { ...user.profile, ...changes });
      return 1;
    },
  }),
  defineMethod({
    name: 'account.addcontact',
    handler: async (ctx, params) => {
      const { type, value } = normalizeContact(params.contact, params.phone_country_code);
      const isAdded = await ctx.services.accounts.addContact(ctx.uid, {
        type,
        value,
        phoneCountryCode: type === 'phone' ? (params.phone_country_code ?? null) : null,
      });
      if (!isAdded)
        throw new ApiError('InvalidParameterException', 'This contact is already added', {
          field: 'contact',
          errorType: 'taken',
        });
      return 1;
    },
  }),
  defineMethod({
    name: 'account.sendconfirmationtocontact',
    handler: async (ctx, params) => {
      const contact = await findContact(ctx, normalizeContact(params.contact).value);
      if (contact.isConfirmed) throw new ApiError('InvalidRequestException', 'This contact is already confirmed');
      await ctx.services.rateLimits.consume({ key: `send-code:user:${ctx.uid}`, max: 5, windowMs: 15 * 60 * 1000 });
      const code = await ctx.services.oneTimeSecrets.issueCode(ctx.uid, contact.value);
      const t = await ctx.services.content.getTranslations(ctx.site.id, ctx.locale);
      await ctx.services.messaging.send({
        siteId: ctx.site.id,
        channel: contact.type === 'email' ? 'email' : 'sms',
        to: contact.value,
        subject: t['mail.confirm.subject'] ?? 'Your confirmation code',
        text:
          fillMessage(t['mail.confirm.body'] ?? 'Your confirmation code is $$code$$.', { code, site: ctx.site.name }) +
          (await unsubscribeFooter(ctx, contact)),
      });
      return 1;
    },
  }),
  defineMethod({
    name: 'account.confirmContact',
    handler: async (ctx, params) => {
      requireValid('code', validateCode(params.code));
      const contact = await findContact(ctx, normalizeContact(params.contact).value);
      await ctx.services.rateLimits.consume({ key: `confirm-code:user:${ctx.uid}`, max: 10, windowMs: 15 * 60 * 1000 });
      if (!(await ctx.services.oneTimeSecrets.consumeCode(ctx.uid, contact.value, params.code.trim()))) {
        throw new ApiError('InvalidParameterException', 'The code is wrong or expired', { field: 'code', errorType: 'smsCode' });
      }
      await ctx.services.accounts.confirmContact(contact.id);
      return 1;
    },
  }),
  defineMethod({
    name: 'account.changeSubscription',
    handler: async (ctx, params) => {
      const contact = await findContact(ctx, normalizeContact(params.contact).value);
      await ctx.services.accounts.setSubscription(contact.id, params.subscription === '1');
      return 1;
    },
  }),
  defineMethod({
    name: 'account.changefakename',
    handler: async (ctx, params) => {
      requireValid('fakename', validateFakename(params.fakename));
      await ctx.services.accounts.setFakename(ctx.uid, params.fakename);
      return 1;
    },
  }),
  defineMethod({
    name: 'account.changelocale',
    handler: async (ctx, params) => {
      if (!isLocale(params.locale) || !ctx.site.locales.includes(params.locale)) {
        throw new ApiError('InvalidParameterException', 'Invalid parameter: locale', { field: 'locale' });
      }
      await ctx.services.accounts.setLocale(ctx.uid, params.locale);
      return 1;
    },
  }),
  defineMethod({
    name: 'account.changepassword',
    handler: async (ctx, params) => {
      const user = await requireUser(ctx);
      requireValid('new_password', validatePassword(params.new_password));
      requireValid('new_password', validatePasswordLength(params.new_password));
      if (params.new_password_repeated !== undefined)
        requireValid('new_password_repeated', validatePassword(params.new_password_repeated, params.new_password));
      // Every other session ends; this browser gets a fresh one.
      await ctx.services.auth.changePassword(user, params.old_password, params.new_password);
      ctx.setSession(await ctx.services.auth.openSession(user.id, ctx));
      return 1;
    },
  }),
];
