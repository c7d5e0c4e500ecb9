/**
 * Profile and contacts (spec §3, §4, §7): getprofileinfo, saveProfileInfo, addcontact,
 * sendconfirmationtocontact, confirmContact, changeSubscription, changefakename, changelocale,
 * changepassword. Mutations answer 1 (spec §5).
 */
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
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
import { defineMethod, type ApiContext } from '../../api/define';
import { requireValid } from '../../api/require-valid';
import { contacts, users } from './tables';
import { canonicalContact, contactTypeOf } from './service';
import { hashPassword, verifyPassword } from '../auth/passwords';

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

const contactParam = z.string().trim().min(1).max(254);

/** E-mails carry a signed link to stop news and offers to that address. */
async function unsubscribeFooter(ctx: ApiContext, contact: { type: string; value: string }): Promise<string> {
  if (contact.type !== 'email') return '';
  const t = await ctx.services.content.getTranslations(ctx.site.id, ctx.locale);
  const query = unsubscribeQuery(await unsubscribeKey(ctx.services.storage), ctx.uid, contact.value);
  return `\n\n${t['mail.footer.unsubscribe'] ?? 'Unsubscribe from news and offers:'} ${siteOrigin(ctx.site, ctx.request.url)}${localizePath('/unsubscribe', ctx.locale)}?${query}`;
}

async function findContact(ctx: ApiContext, value: string) {
  const [row] = await ctx.services.db
    .select()
    .from(contacts)
    .where(and(eq(contacts.userId, ctx.uid), eq(contacts.value, value)))
    .limit(1);
  if (!row)
    throw new ApiError('InvalidParameterException', 'Invalid parameter: contact', { field: 'contact', errorType: 'unknown' });
  return row;
}

function normalizeContact(raw: string): { type: 'email' | 'phone'; value: string } {
  const value = raw.trim().replace(/^\++/, '');
  const type = contactTypeOf(value);
  requireValid('contact', type === 'email' ? validateEmail(value) : validatePhone(value));
  return { type, value: canonicalContact(value) };
}

export const profileMethods = [
  defineMethod({
    service: 'account',
    method: 'getprofileinfo',
    verbs: ['GET'],
    requiresUser: true,
    params: z.object({ fields: z.string().optional() }),
    handler: async (ctx) => {
      const user = await requireUser(ctx);
      const rows = await ctx.services.db.select().from(contacts).where(eq(contacts.userId, user.id)).orderBy(contacts.id);
      const profile = user.profile as Record<string, string>;
      return {
        ...Object.fromEntries(
          Object.keys(PROFILE_VALIDATORS).map((field) => [field, profile[field] ?? (field === 'sex' ? 0 : '')]),
        ),
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
    service: 'account',
    method: 'saveProfileInfo',
    verbs: ['POST'],
    requiresUser: true,
    params: z.record(z.string(), z.unknown()),
    handler: async (ctx, params) => {
      const user = await requireUser(ctx);
      const changes: Record<string, string> = {};
      for (const [field, validate] of Object.entries(PROFILE_VALIDATORS)) {
        const value = params[field];
        if (value === undefined) continue;
        const text = String(value).trim();
        requireValid(field, validate(text));
        changes[field] = text;
      }
      await ctx.services.db
        .update(users)
        .set({ profile: { ...user.profile, ...changes }, updatedAt: new Date() })
        .where(eq(users.id, user.id));
      return 1;
    },
  }),
  defineMethod({
    service: 'account',
    method: 'addcontact',
    verbs: ['POST'],
    requiresUser: true,
    params: z.object({
      contact: contactParam,
      phone_country_code: z
        .string()
        .regex(/^\+?\d{1,4}$/)
        .optional(),
    }),
    handler: async (ctx, params) => {
      const { type, value } = normalizeContact(params.contact);
      const [row] = await ctx.services.db
        .insert(contacts)
        .values({ userId: ctx.uid, type, value, phoneCountryCode: type === 'phone' ? (params.phone_country_code ?? null) : null })
        .onConflictDoNothing()
        .returning({ id: contacts.id });
      if (!row)
        throw new ApiError('InvalidParameterException', 'This contact is already added', {
          field: 'contact',
          errorType: 'taken',
        });
      return 1;
    },
  }),
  defineMethod({
    service: 'account',
    method: 'sendconfirmationtocontact',
    verbs: ['POST'],
    requiresUser: true,
    params: z.object({ contact: contactParam }),
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
    service: 'account',
    method: 'confirmContact',
    verbs: ['POST'],
    requiresUser: true,
    params: z.object({ contact: contactParam, code: z.string().max(12) }),
    handler: async (ctx, params) => {
      requireValid('code', validateCode(params.code));
      const contact = await findContact(ctx, normalizeContact(params.contact).value);
      await ctx.services.rateLimits.consume({ key: `confirm-code:user:${ctx.uid}`, max: 10, windowMs: 15 * 60 * 1000 });
      if (!(await ctx.services.oneTimeSecrets.consumeCode(ctx.uid, contact.value, params.code.trim()))) {
        throw new ApiError('InvalidParameterException', 'The code is wrong or expired', { field: 'code', errorType: 'smsCode' });
      }
      await ctx.services.db.update(contacts).set({ isConfirmed: true }).where(eq(contacts.id, contact.id));
      return 1;
    },
  }),
  defineMethod({
    service: 'account',
    method: 'changeSubscription',
    verbs: ['POST'],
    requiresUser: true,
    params: z.object({ contact: contactParam, subscription: z.enum(['0', '1']) }),
    handler: async (ctx, params) => {
      const contact = await findContact(ctx, normalizeContact(params.contact).value);
      await ctx.services.db
        .update(contacts)
        .set({ isSubscribed: params.subscription === '1' })
        .where(eq(contacts.id, contact.id));
      return 1;
    },
  }),
  defineMethod({
    service: 'account',
    method: 'changefakename',
    verbs: ['POST'],
    requiresUser: true,
    params: z.object({ fakename: z.string().max(40) }),
    handler: async (ctx, params) => {
      requireValid('fakename', validateFakename(params.fakename));
      await ctx.services.db.update(users).set({ fakename: params.fakename }).where(eq(users.id, ctx.uid));
      return 1;
    },
  }),
  defineMethod({
    service: 'account',
    method: 'changelocale',
    verbs: ['POST'],
    requiresUser: true,
    params: z.object({ locale: z.string() }),
    handler: async (ctx, params) => {
      if (!isLocale(params.locale) || !ctx.site.locales.includes(params.locale)) {
        throw new ApiError('InvalidParameterException', 'Invalid parameter: locale', { field: 'locale' });
      }
      await ctx.services.db.update(users).set({ locale: params.locale }).where(eq(users.id, ctx.uid));
      return 1;
    },
  }),
  defineMethod({
    service: 'account',
    method: 'changepassword',
    verbs: ['POST'],
    requiresUser: true,
    params: z.object({
      old_password: z.string().max(200),
      new_password: z.string().max(200),
      new_password_repeated: z.string().max(200).optional(),
    }),
    handler: async (ctx, params) => {
      const user = await requireUser(ctx);
      requireValid('new_password', validatePassword(params.new_password));
      requireValid('new_password', validatePasswordLength(params.new_password));
      if (params.new_password_repeated !== undefined)
        requireValid('new_password_repeated', validatePassword(params.new_password_repeated, params.new_password));
      await ctx.services.rateLimits.consume({ key: `change-password:user:${user.id}`, max: 10, windowMs: 15 * 60 * 1000 });
      if (!(await verifyPassword(user.passwordHash, params.old_password))) {
        throw new ApiError('InvalidParameterException', 'Invalid parameter: old_password', {
          field: 'old_password',
          errorType: 'password',
        });
      }
      await ctx.services.db
        .update(users)
        .set({ passwordHash: await hashPassword(params.new_password) })
        .where(eq(users.id, user.id));
      // Every other session ends; this browser gets a fresh one.
      await ctx.services.auth.revokeAllSessions(user.id);
      ctx.setSession(await ctx.services.auth.openSession(user.id, ctx));
      return 1;
    },
  }),
];
