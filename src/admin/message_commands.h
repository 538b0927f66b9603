// Message sub-commands: queryMsgById, queryMsgByKey, queryMsgByOffset, sendMessage,
// consumeMessage (Java's tools/command/message/*).
#pragma once

#include <ostream>

#include "admin/command_registry.h"
#include "message/message.h"

namespace apogee::admin {

void RegisterMessageCommands(CommandRegistry* registry);

// Java's QueryMsgByIdSubCommand.printMsg layout ("%-20s %s" label/value lines); the body
// is printed as text after "Message Body:".
void PrintMessageDetail(std::ostream& out, const message::MessageExt& msg);

}  // namespace apogee::admin
