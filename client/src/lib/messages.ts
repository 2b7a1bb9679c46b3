/**
 * Every user-facing message of SPEC §8 (and the validation messages of §5), verbatim, in one place so
 * components and tests share the exact strings.
 */
export const MESSAGES = {
  // §5 validation
  spawnUsernameRequired: 'Please enter a username for your character',
  completeProfileFirst: 'Please complete your character profile first!',
  profileFieldsRequired: 'Please fill in all required fields',
  worldNameRequired: 'Please enter a world name',
  worldDescriptionRequired: 'Please enter a world description',
  worldDescriptionTooLong: 'World description cannot exceed 1200 characters',
  worldQuestionRequired: 'Please enter at least one question',
  worldDescriptionFirst: 'Please enter a world description first',
  generatedDescriptionTooLong: 'Generated description exceeds the maximum of 1200 characters. Please edit it before accepting.',
  supportMessageRequired: 'Please enter a message before submitting.',

  // §8 worlds and characters
  notEnoughCreditsForWorld: 'You need at least 3 credits to create a new world.',
  creditsCheckFailed: 'Unable to check your subscription status. Please try again.',
  insufficientCreditsForCharacter: 'You do not have sufficient credits for character creation. Please upgrade your subscription for more credits.',
  noWorldDescription: 'No world description available',
  spawnFromProfileFailed: 'Failed to spawn character from profile. Please try again.',
  shareFailed: 'Failed to update world sharing status. Please try again.',
  generateImageFailed: 'Failed to generate image. Please try again.',
  generateDescriptionFailed: 'Failed to generate description. Please try again.',
  generateQuestionsFailed: 'Failed to generate questions. Please try again.',
  createWorldFailed: 'Failed to create world. Please try again.',
  saveCharacterFailed: 'Failed to save character. Please try again.',
  deleteCharacterConfirm: 'Are you sure you want to delete this character? This action cannot be undone.',
  deleteCharacterFailed: 'Failed to delete character. Please try again.',

  // §8 story
  chapterFailed: 'Failed to generate story chapter. Please try again.',
  // Not in the SPEC (takes and undo are ours): the same tone as its failure messages.
  selectTakeFailed: 'Failed to switch to that version. Please try again.',
  undoFailed: 'Failed to undo the last chapter. Please try again.',
  exportFailed: 'Failed to export the story. Please try again.',
  storyMemorySaved: 'Story memory saved.',
  storyMemoryFailed: 'Failed to save the story memory. Please try again.',
  chapterEdited: 'Your edit was saved.',
  chapterEditFailed: 'Failed to save your edit. Please try again.',
  storyCardSaved: 'Story card saved.',
  storyCardSaveFailed: 'Failed to save the story card. Please try again.',
  storyCardDeleted: 'Story card deleted.',
  storyCardDeleteFailed: 'Failed to delete the story card. Please try again.',
  storyCardDeleteConfirm: 'Delete this story card? The storyteller will forget it.',
  chapterStopped: 'Chapter stopped. Nothing of it was kept; your action is back in the box.',
  stopFailed: 'Failed to stop the chapter. Please try again.',
  rewound: (chapter: number) => `Back at chapter ${chapter}. The chapters after it are kept under Branches.`,
  rewindFailed: 'Failed to rewind the story. Please try again.',
  branchRestored: 'You are back on that branch. The chapters you left are kept under Branches.',
  branchRestoreFailed: 'Failed to return to that branch. Please try again.',
  branchDeleteFailed: 'Failed to delete the branch. Please try again.',
  branchDeleteConfirm: 'Delete this branch? Its chapters will be gone for good.',
  // SPEC §8: a failed mission update keeps edit mode open; we also say so next to the field.
  missionSaveFailed: 'Failed to save the mission. Please try again.',

  // §8 profile, settings, support, subscription
  profileLoadFailed: 'Failed to load profile',
  profileSaved: 'Profile saved successfully!',
  profileSaveFailed: 'Failed to save profile',
  logoutFailed: 'Failed to log out. Please try again.',
  settingsSaveFailed: 'Failed to save settings. Please try again.',
  supportFailed: 'Failed to submit your message. Please try again.',
  supportSuccess: (type: string) => `Your ${type} has been submitted successfully!`,
  subscriptionLoadFailed: 'Failed to load subscription information. Please try again.',
  subscriptionUpdateFailed: 'Failed to update subscription. Please try again.',
  subscriptionUpdated: 'Subscription updated successfully!',
  checkoutFailed: 'Failed to start checkout process. Please try again.',
  subscriptionStatusFailed: 'Failed to load subscription status',
} as const;
