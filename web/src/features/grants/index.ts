// The grants feature's public entry point: the proposal form's grant terms
// editor and their check, which the governance form shows for type grant.
export { GrantTermsEditor } from './GrantTermsEditor'
export { checkGrantTerms, emptyGrantTerms, type GrantTerms, type TermsErrors } from './terms'
