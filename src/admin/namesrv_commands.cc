#include "admin/namesrv_commands.h"

namespace apogee::admin {
namespace {

Status UpdateKvConfig(const ParsedOptions& o, CommandContext& ctx) {
  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  APOGEE_RETURN_IF_ERROR(admin->PutKvConfig(o.Get("namespace"), o.Get("key"), o.Get("value")));
  ctx.out() << "create or update kv config to namespace success.\n";
  return Status::OK();
}

Status DeleteKvConfig(const ParsedOptions& o, CommandContext& ctx) {
  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  APOGEE_RETURN_IF_ERROR(admin->DeleteKvConfig(o.Get("namespace"), o.Get("key")));
  ctx.out() << "delete kv config from namespace success.\n";
  return Status::OK();
}

// Asks every NameServer of -n; a failing one is reported and makes the command fail, the
// others are still asked (an operator wants the permission changed wherever possible).
Status ChangeWritePerm(const ParsedOptions& o, CommandContext& ctx, bool wipe) {
  std::string broker = o.Get("brokerName");
  APOGEE_ASSIGN_OR_RETURN(MQAdminClient * admin, ctx.Admin(o));
  const char* verb = wipe ? "wipe" : "add";
  Status first_error;
  APOGEE_ASSIGN_OR_RETURN(std::vector<std::string> name_servers, admin->NameServers());
  for (const std::string& ns : name_servers) {
    auto count = wipe ? admin->WipeWritePerm(ns, broker) : admin->AddWritePerm(ns, broker);
    if (count.ok()) {
      ctx.out() << verb << " write perm of broker[" << broker << "] in name server[" << ns << "] OK, "
                << *count << "\n";
    } else {
      ctx.out() << verb << " write perm of broker[" << broker << "] in name server[" << ns << "] Failed\n";
      if (first_error.ok()) first_error = count.status();
    }
  }
  return first_error;
}

}  // namespace

void RegisterNamesrvCommands(CommandRegistry* r) {
  r->Add({{"updateKvConfig",
           "Create or update KV config.",
           {{"s", "namespace", true, true, "set the namespace"},
            {"k", "key", true, true, "set the key name"},
            {"v", "value", true, true, "set the key value"}}},
          UpdateKvConfig});
  r->Add({{"deleteKvConfig",
           "Delete KV config.",
           {{"s", "namespace", true, true, "set the namespace"}, {"k", "key", true, true, "set the key name"}}},
          DeleteKvConfig});
  r->Add({{"wipeWritePerm",
           "Wipe write perm of broker in all name server you defined in the -n param.",
           {{"b", "brokerName", true, true, "broker name"}}},
          [](const ParsedOptions& o, CommandContext& ctx) { return ChangeWritePerm(o, ctx, true); }});
  r->Add({{"addWritePerm",
           "Add write perm of broker in all name server you defined in the -n param.",
           {{"b", "brokerName", true, true, "broker name"}}},
          [](const ParsedOptions& o, CommandContext& ctx) { return ChangeWritePerm(o, ctx, false); }});
}

}  // namespace apogee::admin
