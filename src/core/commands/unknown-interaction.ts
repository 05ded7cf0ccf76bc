/**
 * P17: what a person is told when they use something of Summon's that it no longer knows (a
 * button of a card from an older version, a form), the same on every platform.
 */
export const NO_LONGER_ACTIVE = 'This button is no longer active: nothing was changed.';
export const FORM_NO_LONGER_ACTIVE = 'This form is no longer active: nothing was saved.';
