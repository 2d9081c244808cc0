import { DomainError } from '@transfergate/contracts';

/** At least 12 characters, 3 of 4 character classes, not the username, not the old password. */
export function assertPasswordPolicy(password: string, username: string, oldPassword?: string): void {
  const classes = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z0-9]/].filter((re) => re.test(password)).length;
  if (password.length < 12 || password.length > 256)
    throw new DomainError('weak_password', 'the new password must have 12 to 256 characters');
  if (classes < 3)
    throw new DomainError('weak_password', 'use at least three of: lower case, upper case, digits, symbols');
  if (password.toLowerCase().includes(username.toLowerCase()))
    throw new DomainError('weak_password', 'the password must not contain the username');
  if (oldPassword !== undefined && password === oldPassword)
    throw new DomainError('weak_password', 'the new password must differ from the old one');
}
