import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { User } from './user.entity';

@ObjectType({ description: 'A signed-in session: a 1-hour access token and a single-use refresh token.' })
export class AuthSession {
  @Field()
  accessToken: string;

  @Field({ description: 'Opaque and single-use: each refresh returns a new one. Reusing one revokes the session.' })
  refreshToken: string;

  @Field(() => Int, { description: 'Unix time (seconds) when the access token expires.' })
  expiresAt: number;

  @Field(() => Int)
  expiresIn: number;

  @Field()
  tokenType: string;

  @Field(() => User)
  user: User;

  @Field({ description: 'The account has an authenticator app and this session still needs its code (verifyMfaCode with this access token).' })
  mfaRequired: boolean;
}

@ObjectType({ description: 'An authenticator app (TOTP) of your account.' })
export class MfaFactorInfo {
  @Field(() => ID)
  id: string;

  @Field(() => String, { nullable: true })
  friendlyName: string | null;

  @Field({ description: 'verified, or unverified until its first code is entered.' })
  status: string;

  @Field()
  createdAt: Date;
}

@ObjectType({ description: 'A new authenticator to add: scan the QR code or type the secret, then confirm a code.' })
export class TotpEnrollment {
  @Field(() => ID)
  factorId: string;

  @Field({ description: 'An SVG image of the otpauth URI.' })
  qrCodeSvg: string;

  @Field({ description: 'The secret, base32, for typing in by hand.' })
  secret: string;

  @Field()
  uri: string;
}

@InputType()
export class SignUpInput {
  @Field()
  email: string;

  @Field()
  username: string;

  @Field()
  password: string;
}

@InputType()
export class SignInInput {
  @Field()
  email: string;

  @Field()
  password: string;
}

@InputType({ description: 'What to change on your account; leave out what stays.' })
export class UpdateAccountInput {
  @Field(() => String, { nullable: true })
  username?: string | null;

  @Field(() => String, { nullable: true, description: 'Required with newPassword.' })
  currentPassword?: string | null;

  @Field(() => String, { nullable: true, description: '8–128 characters.' })
  newPassword?: string | null;

  @Field(() => String, { nullable: true, description: 'A new email address: it changes once the link mailed to it is followed. Needs currentPassword.' })
  email?: string | null;
}
