import { AppSecret } from '../modules/auth/app-secret.entity';
import { AuthToken, MfaChallenge, MfaFactor, RefreshToken, Session } from '../modules/auth/session.entity';
import { User } from '../modules/auth/user.entity';
import { CreditTransaction } from '../modules/billing/credit-transaction.entity';
import { LocalCheckoutSession, LocalSubscription } from '../modules/billing/payments/local-payment.entity';
import { PaymentEvent } from '../modules/billing/payment-event.entity';
import { Subscription } from '../modules/billing/subscription.entity';
import { Tier } from '../modules/billing/tier.entity';
import { ContentReport } from '../modules/community/content-report.entity';
import { OperatorAction } from '../modules/community/operator-action.entity';
import { StoryPublication } from '../modules/community/story-publication.entity';
import { WorldLike } from '../modules/community/world-like.entity';
import { Character } from '../modules/characters/character.entity';
import { CharacterDraft } from '../modules/characters/character-draft.entity';
import { Media } from '../modules/media/media.entity';
import { Party, PartyAction, PartyBan, PartyInvite, PartyMember } from '../modules/parties/party.entity';
import { UserCharacterProfile } from '../modules/profile/character-profile.entity';
import { UserSettings } from '../modules/profile/user-settings.entity';
import { AttemptCounter } from '../modules/shared/attempt-counter.entity';
import { MemoryEmbedding, PlayerMemory } from '../modules/stories/memory/memory.entity';
import { Chapter } from '../modules/stories/chapter.entity';
import { ChapterAudio } from '../modules/stories/read-aloud/chapter-audio.entity';
import { Mission } from '../modules/stories/missions/mission.entity';
import { StoryCard } from '../modules/stories/memory/story-card.entity';
import { StoryBranch } from '../modules/stories/editing/story-branch.entity';
import { SupportMessage } from '../modules/support/support-message.entity';
import { World } from '../modules/worlds/world.entity';

/** Every entity of the product; the data source and the migration generator both use this list. */
export const ENTITIES = [
  User,
  Session,
  RefreshToken,
  AuthToken,
  MfaFactor,
  MfaChallenge,
  AppSecret,
  UserSettings,
  UserCharacterProfile,
  Media,
  World,
  Character,
  CharacterDraft,
  Chapter,
  Mission,
  StoryCard,
  StoryBranch,
  Tier,
  Subscription,
  CreditTransaction,
  PaymentEvent,
  LocalCheckoutSession,
  LocalSubscription,
  SupportMessage,
  WorldLike,
  StoryPublication,
  ContentReport,
  OperatorAction,
  AttemptCounter,
  PlayerMemory,
  MemoryEmbedding,
  ChapterAudio,
  Party,
  PartyMember,
  PartyBan,
  PartyInvite,
  PartyAction,
];
