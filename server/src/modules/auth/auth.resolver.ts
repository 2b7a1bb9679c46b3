import { Arg, Authorized, Ctx, ID, Mutation, Query, Resolver } from 'type-graphql';
import { requireUser } from '../../graphql/auth-checker';
import type { GraphQLContext } from '../../graphql/context';
import { AppError } from '../../common/app-error';
import { isSession } from './auth.service';
import { AuthSession, MfaFactorInfo, SignInInput, SignUpInput, TotpEnrollment, UpdateAccountInput } from './auth.types';
import { User } from './user.entity';

@Resolver()
export class AuthResolver {
  @Query(() => User, { nullable: true, description: 'The signed-in user, or null for anonymous callers.' })
  me(@Ctx() ctx: GraphQLContext): User | null {
    if (!ctx.user) return null;
    // The session check already read the account (a change of username forgets the caller's cached
    // check, so the caller sees it at once; other devices within SESSION_CACHE_SECONDS): no second read.
    const { id, email, username, createdAt } = ctx.user;
    return Object.assign(new User(), { id, email, username, createdAt });
  }

  @Mutation(() => AuthSession, {
    nullable: true,
    description:
      'Creates the account and signs it in. When the server requires email confirmation (REQUIRE_EMAIL_CONFIRMATION), answers null: a confirmation link was mailed, and signing in waits for it.',
  })
  async signUp(@Arg('input', () => SignUpInput) input: SignUpInput, @Ctx() ctx: GraphQLContext): Promise<AuthSession | null> {
    const outcome = await ctx.services.emailLinks.signUp(input, null, ctx.meta);
    return isSession(outcome) ? outcome : null;
  }

  @Mutation(() => Boolean, {
    description: 'Mails a new sign-up confirmation link to an unconfirmed account; answers true for any address (no account enumeration).',
  })
  async resendConfirmation(@Arg('email', () => String) email: string, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    await ctx.services.emailLinks.resendSignup(email, null, ctx.meta);
    return true;
  }

  @Mutation(() => AuthSession)
  signIn(@Arg('input', () => SignInInput) input: SignInInput, @Ctx() ctx: GraphQLContext): Promise<AuthSession> {
    return ctx.services.auth.signIn(input, ctx.meta);
  }

  @Mutation(() => AuthSession)
  refreshSession(@Arg('refreshToken', () => String) refreshToken: string, @Ctx() ctx: GraphQLContext): Promise<AuthSession> {
    return ctx.services.auth.refresh(refreshToken, ctx.meta);
  }

  @Mutation(() => Boolean, {
    description:
      'Mails a password-reset link when the email has an account; answers true either way (no account enumeration). The link lands on /reset-password, or on redirectTo when it is on an allowed origin.',
  })
  async requestPasswordReset(
    @Arg('email', () => String) email: string,
    @Arg('redirectTo', () => String, { nullable: true }) redirectTo: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<boolean> {
    await ctx.services.recovery.request(email, redirectTo, ctx.meta);
    return true;
  }

  @Authorized()
  @Mutation(() => Boolean, {
    description:
      'Revokes sessions (with all their refresh tokens): local = this one (the default), global = every session of the account, others = all but this one.',
  })
  async signOut(@Ctx() ctx: GraphQLContext, @Arg('scope', () => String, { defaultValue: 'local' }) scope: string): Promise<boolean> {
    await ctx.services.auth.signOutScope(requireUser(ctx), scope);
    return true;
  }

  @Authorized()
  @Mutation(() => User, {
    description:
      'Changes your username, password or email. A new password needs the current one and ends every other session of the account. A new email needs the current password too, and changes once the link mailed to it is followed.',
  })
  async updateAccount(@Arg('input', () => UpdateAccountInput) input: UpdateAccountInput, @Ctx() ctx: GraphQLContext): Promise<User> {
    const user = requireUser(ctx);
    if (input.email && input.email.trim().toLowerCase() !== user.email) {
      await ctx.services.emailLinks.requestEmailChange(user, input.email, input.currentPassword, null, ctx.meta);
      if (!input.username && !input.newPassword) {
        const me = await ctx.services.auth.userById(user.id);
        if (!me) throw AppError.unauthenticated();
        return me;
      }
    }
    return ctx.services.auth.updateAccount(user, { username: input.username, password: input.newPassword, currentPassword: input.currentPassword }, ctx.meta);
  }

  @Mutation(() => AuthSession, {
    description:
      'The second step of signing in to an account with an authenticator app: send the code with the access token signIn answered (mfaRequired). Answers a session that reaches the app.',
  })
  verifyMfaCode(@Arg('code', () => String) code: string, @Ctx() ctx: GraphQLContext): Promise<AuthSession> {
    const user = ctx.mfaPendingUser ?? ctx.user;
    if (!user) throw AppError.unauthenticated();
    return ctx.services.mfa.verifyAny(user, code);
  }

  @Authorized()
  @Query(() => [MfaFactorInfo], { description: 'Your authenticator apps.' })
  async mfaFactors(@Ctx() ctx: GraphQLContext): Promise<MfaFactorInfo[]> {
    return (await ctx.services.mfa.factors(requireUser(ctx).id)).map((f) => ({
      id: f.id,
      friendlyName: f.friendlyName,
      status: f.status,
      createdAt: f.createdAt,
    }));
  }

  @Authorized()
  @Mutation(() => TotpEnrollment, { description: 'Starts adding an authenticator app; confirmTotp with a code from it finishes.' })
  async enrollTotp(
    @Arg('friendlyName', () => String, { nullable: true }) friendlyName: string | null,
    @Arg('currentPassword', () => String, {
      nullable: true,
      description: 'Needed when this session signed in with the password over 10 minutes ago (a recent proof of the password).',
    })
    currentPassword: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<TotpEnrollment> {
    const f = await ctx.services.mfa.enroll(requireUser(ctx), { factorType: 'totp', friendlyName, currentPassword }, ctx.meta);
    return { factorId: f.id, qrCodeSvg: f.totp.qr_code, secret: f.totp.secret, uri: f.totp.uri };
  }

  @Authorized()
  @Mutation(() => AuthSession, {
    description: 'Confirms a new authenticator with a code from it. Every other session of the account ends; this one goes on at aal2 (new tokens).',
  })
  async confirmTotp(@Arg('factorId', () => ID) factorId: string, @Arg('code', () => String) code: string, @Ctx() ctx: GraphQLContext): Promise<AuthSession> {
    const user = requireUser(ctx);
    const challenge = await ctx.services.mfa.challenge(user, factorId);
    return ctx.services.mfa.verify(user, factorId, challenge.id, code);
  }

  @Authorized()
  @Mutation(() => Boolean, { description: 'Removes an authenticator app; signing in then needs only the password again.' })
  async removeMfaFactor(@Arg('factorId', () => ID) factorId: string, @Ctx() ctx: GraphQLContext): Promise<boolean> {
    await ctx.services.mfa.unenroll(requireUser(ctx), factorId);
    return true;
  }
}
