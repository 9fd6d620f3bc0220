import type mongoose from 'mongoose';
import { Schema } from 'mongoose';
import { isObjectId } from '~/lib/db.server';
import { addressFields, iso, recordIds, recordsOf, registeredModel } from '~/lib/records.server';
import {
  ACCOUNT_LANGUAGES,
  ACCOUNT_STATUSES,
  type AccountAddress,
  type AccountCreateInput,
  type AccountLanguage,
  type AccountStatus,
  type AccountUpdateInput,
} from '~/schemas/account';

/** The shipper accounts: the courier's customers, whose users and keys see their own parcels. */
const addressSchema = new Schema({ ...addressFields }, { _id: false });

const accountSchema = new Schema(
  {
    name: { type: String, required: true, trim: true },
    email: { type: String, required: true, trim: true, lowercase: true },
    phone: { type: String, default: '', trim: true },
    address: { type: addressSchema, default: () => ({}) },
    pickupAddress: { type: addressSchema, default: () => ({}) },
    language: { type: String, enum: ACCOUNT_LANGUAGES, default: 'en' },
    status: { type: String, enum: ACCOUNT_STATUSES, default: 'active' },
  },
  { timestamps: true },
);
accountSchema.index({ name: 1, _id: 1 });

export const Account = registeredModel('Account', accountSchema);

type LeanAccount = {
  _id: mongoose.Types.ObjectId;
  name: string;
  email: string;
  phone?: string | null;
  address?: Partial<AccountAddress> | null;
  pickupAddress?: Partial<AccountAddress> | null;
  language?: string | null;
  status?: string | null;
  createdAt?: Date | null;
  updatedAt?: Date | null;
};

const address = (a: Partial<AccountAddress> | null | undefined): AccountAddress => ({
  address: a?.address ?? '',
  city: a?.city ?? '',
  region: a?.region ?? '',
  postalCode: a?.postalCode ?? '',
  country: a?.country ?? '',
});

function serializeAccount(doc: LeanAccount) {
  return {
    ...recordIds(doc._id),
    name: doc.name,
    email: doc.email,
    phone: doc.phone ?? '',
    address: address(doc.address),
    pickupAddress: address(doc.pickupAddress),
    language: (doc.language ?? 'en') as AccountLanguage,
    status: (doc.status ?? 'active') as AccountStatus,
    createdAt: iso(doc.createdAt),
    updatedAt: iso(doc.updatedAt),
  };
}
export type SerializedAccount = ReturnType<typeof serializeAccount>;

export async function insertAccount(input: AccountCreateInput): Promise<SerializedAccount> {
  const doc = await Account.create({
    ...input,
    pickupAddress: input.pickupAddress ?? input.address,
  });
  return serializeAccount(doc.toObject() as LeanAccount);
}

export async function listAccounts(): Promise<SerializedAccount[]> {
  const docs = await Account.find().sort({ name: 1, _id: 1 }).lean<LeanAccount[]>();
  return docs.map(serializeAccount);
}

const accounts = recordsOf(Account, serializeAccount);

export const getAccount = accounts.byId;

/** Only the fields given change; null when there is no such account. */
export const updateAccountFields = (id: string, input: AccountUpdateInput) =>
  accounts.updateGiven(id, input);

/** Whether the account exists and is active: a suspended account's users and keys do nothing. */
export async function isAccountActive(id: string): Promise<boolean> {
  if (!isObjectId(id)) return false;
  return !!(await Account.exists({ _id: id, status: { $ne: 'suspended' } }));
}

/**
 * The names of the accounts, for the parcel table's filter, and of the active ones
 * (`activeOnly`) for the parcel form's choice.
 */
export async function listAccountNames({ activeOnly = false } = {}): Promise<
  Array<{ id: string; name: string }>
> {
  const docs = await Account.find(activeOnly ? { status: { $ne: 'suspended' } } : {}, { name: 1 })
    .sort({ name: 1, _id: 1 })
    .lean<LeanAccount[]>();
  return docs.map((doc) => ({ id: String(doc._id), name: doc.name }));
}
