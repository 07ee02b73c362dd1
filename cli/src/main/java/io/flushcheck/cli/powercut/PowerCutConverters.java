package io.flushcheck.cli.powercut;

import io.flushcheck.cli.common.Converters;
import io.flushcheck.cli.common.UsageException;
import io.flushcheck.powercut.BlockDamage;
import io.flushcheck.powercut.CrashStates;
import io.flushcheck.powercut.DataFault;
import io.flushcheck.powercut.DiskModel;
import io.flushcheck.powercut.Errno;
import io.flushcheck.powercut.FileRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** picocli's converters of the {@code powercut} commands' option values, over {@link Converters}' checks. */
final class PowerCutConverters {

    private PowerCutConverters() {
    }

    /** {@code powercut --shard I/N}: 1 &lt;= I &lt;= N. */
    static final class ShardValue implements ITypeConverter<Shard> {
        @Override
        public Shard convert(String value) {
            try {
                return Shard.parse(value);
            } catch (UsageException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** {@code powercut --size-mib}: 16 to 65536 MiB (ext4 needs room for its journal). */
    static final class SizeMib implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return Converters.convertInt("--size-mib", value, 16, 65536);
        }
    }

    /** {@code powercut --cuts}: 1 to {@link PowerCutCommand#MAX_CUTS}. */
    static final class Cuts implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return Converters.convertInt("--cuts", value, 1, PowerCutCommand.MAX_CUTS);
        }
    }

    /** {@code powercut --draw}: 1 to {@link PowerCutCommand#MAX_STATES}. */
    static final class Draw implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return Converters.convertInt("--draw", value, 1, PowerCutCommand.MAX_STATES);
        }
    }

    /** {@code powercut --damage-blocks}: 1 to {@link PowerCutDamageCommand#MAX_BLOCKS}. */
    static final class DamageBlocks implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return Converters.convertInt("--damage-blocks", value, 1, PowerCutDamageCommand.MAX_BLOCKS);
        }
    }

    /**
     * {@code powercut --explore --kinds}: the kinds of damage a crash state can take, data at rest (bit-rot, zeroed);
     * the kinds that act on a running program's reads and writes are {@code powercut damage}'s.
     */
    static final class RestKindName implements ITypeConverter<DataFault.Kind> {
        @Override
        public DataFault.Kind convert(String value) {
            BlockDamage kind;
            try {
                kind = new PowerCutDamageCommand.KindName().convert(value);
            } catch (TypeConversionException e) {
                // The damage command's list names kinds this option refuses: say this option's own.
                throw new TypeConversionException("--kinds with --damage-blocks takes bit-rot and zeroed, not '" + value
                        + "'");
            }
            return switch (kind) {
                case BIT_ROT -> DataFault.Kind.BIT_ROT;
                case ZEROED -> DataFault.Kind.ZEROED;
                default -> throw new TypeConversionException("--kinds with --damage-blocks takes bit-rot and zeroed, the"
                        + " damage a crash state can hold at rest, not '" + value + "' (a program's reads and writes meet"
                        + " it: flushcheck powercut damage --kinds " + kind.option() + ")");
            };
        }
    }

    /** {@code powercut --workers}: 1 to {@link CrashStates#MAX_WORKERS}. */
    static final class Workers implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return Converters.convertInt("--workers", value, 1, CrashStates.MAX_WORKERS);
        }
    }

    /** {@code powercut --max-states}: 1 to {@link PowerCutCommand#MAX_STATES}. */
    static final class MaxStates implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return Converters.convertInt("--max-states", value, 1, PowerCutCommand.MAX_STATES);
        }
    }

    /** {@code powercut --after-flushes}: 1 to {@link Integer#MAX_VALUE}. */
    static final class AfterFlushes implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return (long) Converters.convertInt("--after-flushes", value, 1, Integer.MAX_VALUE);
        }
    }

    /** {@code powercut --during-flush}: 1 to {@link Integer#MAX_VALUE}. */
    static final class DuringFlush implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return (long) Converters.convertInt("--during-flush", value, 1, Integer.MAX_VALUE);
        }
    }

    /** {@code powercut --fail-flush}: 1 to {@link Integer#MAX_VALUE}. */
    static final class FailFlush implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return (long) Converters.convertInt("--fail-flush", value, 1, Integer.MAX_VALUE);
        }
    }

    /** {@code powercut --errno}: one of {@link Errno}'s names, in any case. */
    static final class ErrnoName implements ITypeConverter<Errno> {
        @Override
        public Errno convert(String value) {
            for (Errno e : Errno.values()) {
                if (e.name().equalsIgnoreCase(value.trim())) {
                    return e;
                }
            }
            List<String> names = new ArrayList<>();
            for (Errno e : Errno.values()) {
                names.add(e.name());
            }
            throw new TypeConversionException("--errno takes " + String.join(", ", names) + ", not '" + value + "'");
        }
    }

    /** {@code powercut --seed}: any whole number a long holds. */
    static final class Seed implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return Long.parseLong(value.trim());
            } catch (NumberFormatException e) {
                throw new TypeConversionException("--seed takes a whole number, not '" + value + "'");
            }
        }
    }

    /** {@code powercut --model}: auto, block or file, in any case. */
    static final class Model extends ConstantName<DiskModel> {
        Model() {
            super("--model", DiskModel.class);
        }
    }

    /** {@code powercut --rules}: journaled or posix, in any case. */
    static final class Rules extends ConstantName<FileRules> {
        Rules() {
            super("--rules", FileRules.class);
        }
    }

    /**
     * An option whose value names one of an enum's constants, in any case; any other value is refused with the
     * names in lower case, in their order: "--model takes auto, block or file, not 'x'".
     */
    abstract static class ConstantName<E extends Enum<E>> implements ITypeConverter<E> {
        private final String option;
        private final Class<E> type;

        ConstantName(String option, Class<E> type) {
            this.option = option;
            this.type = type;
        }

        @Override
        public E convert(String value) {
            E[] constants = type.getEnumConstants();
            List<String> names = new ArrayList<>();
            for (E c : constants) {
                if (c.name().equalsIgnoreCase(value.trim())) {
                    return c;
                }
                names.add(c.name().toLowerCase(Locale.ROOT));
            }
            String last = names.remove(names.size() - 1);
            String choices = names.isEmpty() ? last : String.join(", ", names) + " or " + last;
            throw new TypeConversionException(option + " takes " + choices + ", not '" + value + "'");
        }
    }

    /** {@code powercut --timeout}: more than 0 and at most a day, in seconds. */
    static final class Timeout implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            double d = Converters.convertDouble("--timeout", value);
            if (!(d > 0 && d <= 86_400)) {
                throw new TypeConversionException("--timeout " + value + " is out of range: use more than 0 to 86400 seconds");
            }
            return d;
        }
    }
}
