package io.flushcheck.cli.common;

import io.flushcheck.probe.ProbePlan;
import io.flushcheck.sqlite.MatrixOptions;
import org.apiguardian.api.API;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * picocli's converters of the command's option values, over {@link Values}: apart from it, so that a line
 * {@code QuickArgs} reads loads no picocli class (verifying a class that throws picocli's exception loads
 * that exception's classes).
 */
@API(status = API.Status.INTERNAL, since = "0.1")
public final class Converters {

    private Converters() {
    }

    public static int convertInt(String option, String value, int min, int max) {
        try {
            return Values.intValue(option, value, min, max);
        } catch (UsageException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }

    public static double convertDouble(String option, String value) {
        try {
            return Values.doubleValue(option, value);
        } catch (UsageException e) {
            throw new TypeConversionException(e.getMessage());
        }
    }

    /** {@code --rounds}: 1 to {@link ProbePlan#MAX_ROUNDS}. */
    public static final class Rounds implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return convertInt("--rounds", value, 1, ProbePlan.MAX_ROUNDS);
        }
    }

    /** {@code --block-size}: {@link ProbePlan#MIN_BLOCK} to {@link ProbePlan#MAX_BLOCK} bytes, with k/m suffixes. */
    public static final class BlockSize implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return convertInt("--block-size", value, ProbePlan.MIN_BLOCK, ProbePlan.MAX_BLOCK);
        }
    }

    /** {@code sqlite --rows}: 1 to {@link MatrixOptions#MAX_ROWS}. */
    public static final class Rows implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return convertInt("--rows", value, 1, MatrixOptions.MAX_ROWS);
        }
    }

    /** {@code --min-flushes-per-sync}: a number; its range is {@link io.flushcheck.verdict.Thresholds}'. */
    public static final class MinFlushes implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            return convertDouble("--min-flushes-per-sync", value);
        }
    }

    /** {@code --suspicious-micros}: a number; its range is {@link io.flushcheck.verdict.Thresholds}'. */
    public static final class SuspiciousMicros implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            return convertDouble("--suspicious-micros", value);
        }
    }

    /** {@code sqlite --max-cell-seconds}: a number; its range is {@link MatrixOptions}'. */
    public static final class MaxCellSeconds implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            return convertDouble("--max-cell-seconds", value);
        }
    }

    /** {@code sqlite --max-seconds}: a number; its range is {@link MatrixOptions}'. */
    public static final class MaxSeconds implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            return convertDouble("--max-seconds", value);
        }
    }
}
