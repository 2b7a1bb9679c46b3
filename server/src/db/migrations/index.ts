// Ordered list of migrations. `npm run migration:generate -w server -- <Name>` appends here.
import { Init1795240494005 } from './1795240494005-Init';
import { LocalPayments1795241334788 } from './1795241334788-LocalPayments';
import { ChapterTakeState1795241549014 } from './1795241549014-ChapterTakeState';
import { CommitNextChapter1795269152214 } from './1795269152214-CommitNextChapter';
import { CheckoutHandoff1795300000000 } from './1795300000000-CheckoutHandoff';
import { PendingCharges1795300000001 } from './1795300000001-PendingCharges';
import { CommitChapterDocument1795400000000 } from './1795400000000-CommitChapterDocument';
import { StoryMemory1795400000001 } from './1795400000001-StoryMemory';
import { StoryCards1795618777340 } from './1795618777340-StoryCards';
import { ChapterEdits1795621154146 } from './1795621154146-ChapterEdits';
import { StoryBranches1795628722862 } from './1795628722862-StoryBranches';
import { ChapterStop1795629173024 } from './1795629173024-ChapterStop';
import { Community1795668554884 } from './1795668554884-Community';
import { AccountRecovery1795673738675 } from './1795673738675-AccountRecovery';
import { AccountSecurity1795681203336 } from './1795681203336-AccountSecurity';
import { AccountSafety1795701868315 } from './1795701868315-AccountSafety';
import { MemoryBank1795705177364 } from './1795705177364-MemoryBank';
import { Stakes1795710000000 } from './1795710000000-Stakes';
import { CharacterDrafts1795737619880 } from './1795737619880-CharacterDrafts';
import { ReadAloud1795737758908 } from './1795737758908-ReadAloud';
import { Parties1795764658637 } from './1795764658637-Parties';
import { PartyStakes1795800000000 } from './1795800000000-PartyStakes';
import { PartyInviteCodeEnd1795800000001 } from './1795800000001-PartyInviteCodeEnd';
import { LedgerWriteTime1795800000002 } from './1795800000002-LedgerWriteTime';

export const MIGRATIONS = [
  Init1795240494005,
  LocalPayments1795241334788,
  ChapterTakeState1795241549014,
  CommitNextChapter1795269152214,
  CheckoutHandoff1795300000000,
  PendingCharges1795300000001,
  CommitChapterDocument1795400000000,
  StoryMemory1795400000001,
  StoryCards1795618777340,
  ChapterEdits1795621154146,
  StoryBranches1795628722862,
  ChapterStop1795629173024,
  Community1795668554884,
  AccountRecovery1795673738675,
  AccountSecurity1795681203336,
  AccountSafety1795701868315,
  MemoryBank1795705177364,
  Stakes1795710000000,
  CharacterDrafts1795737619880,
  ReadAloud1795737758908,
  Parties1795764658637,
  PartyStakes1795800000000,
  PartyInviteCodeEnd1795800000001,
  LedgerWriteTime1795800000002,
];
