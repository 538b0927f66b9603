// Buffers a thread keeps between commands, so that a request decoded, run and answered on
// one IO thread takes its storage from the previous one's instead of from malloc (issue 13:
// no heap allocation per message on the send path). Whoever is done with a command gives
// its buffers back (RecycleCommand); whoever fills one takes them (the decoders, the JSON
// member writer). Bounded per thread in count and in the size of each buffer, so a thread
// keeps at most 8 × 4 KiB of texts and 4 × 64 KiB of bodies; anything else is freed as
// before. A buffer given back on another thread than the one that takes (a pool thread)
// only fills that thread's list up to its bound.
#pragma once

#include <cstddef>
#include <string>

namespace apogee::protocol {

// Short texts: JSON member texts (RemotingCommand::json_ext_fields) and decoded string
// values longer than a string holds inline (a send's properties, group and topic). Take
// gives an empty `out` the smallest kept text with room for `min_capacity` bytes; false
// when none is kept. Keep leaves `text` empty; with the list full the oldest kept one goes.
bool TakeKeptText(std::string* out, size_t min_capacity);
void KeepText(std::string* text);

// Bodies (RemotingCommand::body): the same for up to 64 KiB of room.
bool TakeKeptBody(std::string* out, size_t min_capacity);
void KeepBody(std::string* body);

}  // namespace apogee::protocol
