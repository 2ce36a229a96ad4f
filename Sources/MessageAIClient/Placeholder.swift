import MessageAIProtocol
import CSQLite
@preconcurrency import CEditline
