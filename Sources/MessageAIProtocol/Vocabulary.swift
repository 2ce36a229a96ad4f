// ConversationKind, ChangeAction, AssistItemKind and AssistItemFilter live in MessageAIVocabulary
// (shared with the store's records); re-exported so that users of the protocol import one module.
@_exported import MessageAIVocabulary
