// Tokenizer files of GPT-2 and Hugging Face models read into the core's byte-level BPE
// (core/lm/byte_bpe.hpp): GPT-2's vocab.json + merges.txt, or a tokenizer.json whose model is BPE behind a
// ByteLevel pre-tokenizer (GPT-2, SmolLM2: Digits then ByteLevel). Anything else is refused in words.
#pragma once

#include <optional>
#include <string>

#include "core/lm/byte_bpe.hpp"

namespace attn::model_io {

// vocab.json's text ({token: id}) and merges.txt's (an optional "#version" line, then one "left right" merge
// a line, in rank order) -> the tokenizer, with GPT-2's pattern and no added tokens (<|endoftext|> in a text
// is encoded as text, as OpenAI's encoder does). Throws InputError in words.
lm::ByteBpe read_gpt2_tokenizer(const std::string& vocab_json, const std::string& merges_txt);

// tokenizer.json's text -> the tokenizer: model.vocab and model.merges ("left right" strings or [left, right]
// pairs), added_tokens matched in the text whole, the pre-tokenizer's ByteLevel (add_prefix_space,
// use_regex), a Digits step before it (individual_digits) and a Split by GPT-2's own pattern. Refused in
// words: another model type, a normalizer, another pre-tokenizer or Split pattern, BPE dropout or subword
// prefixes and suffixes. The post-processor (a BOS token put first) is not applied.
lm::ByteBpe read_tokenizer_json(const std::string& tokenizer_json);

// A Hugging Face folder's tokenizer from the texts of the files it has (null: not there): tokenizer.json
// when there is one, else vocab.json with merges.txt; nullopt when it has none of them. Throws InputError
// when only one of vocab.json and merges.txt is there, or a reader refuses its file.
std::optional<lm::ByteBpe> read_hf_tokenizer(const std::string* tokenizer_json, const std::string* vocab_json,
                                             const std::string* merges_txt);

}  // namespace attn::model_io
