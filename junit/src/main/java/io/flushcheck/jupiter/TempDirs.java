package io.flushcheck.jupiter;

import java.io.File;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Parameter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

/** The {@code @TempDir} directories a test invocation got: its parameters and the fields of its instances. */
final class TempDirs {

    private TempDirs() {
    }

    private static final ClassValue<Boolean> DECLARED = new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
            return scan(type);
        }
    };

    private static final ClassValue<List<Field>> FIELDS = new ClassValue<>() {
        @Override
        protected List<Field> computeValue(Class<?> type) {
            return List.copyOf(AnnotationSupport.findAnnotatedFields(type, TempDir.class));
        }
    };

    /** Whether the class, its superclasses or the classes enclosing an inner one declare a {@code @TempDir} field or parameter. */
    static boolean declared(Class<?> testClass) {
        return DECLARED.get(testClass);
    }

    private static boolean scan(Class<?> testClass) {
        // Enclosing classes only for inner classes (@Nested): their instances are the test's too.
        for (Class<?> c = testClass; c != null; c = Modifier.isStatic(c.getModifiers()) ? null : c.getEnclosingClass()) {
            if (!AnnotationSupport.findAnnotatedFields(c, TempDir.class).isEmpty()
                    || !ReflectionSupport.findMethods(c, TempDirs::hasTempDirParameter, HierarchyTraversalMode.TOP_DOWN).isEmpty()) {
                return true;
            }
            for (Executable constructor : c.getDeclaredConstructors()) {
                if (hasTempDirParameter(constructor)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean hasTempDirParameter(Executable e) {
        for (Parameter p : e.getParameters()) {
            if (p.isAnnotationPresent(TempDir.class)) {
                return true;
            }
        }
        return false;
    }

    /** The directories, in order: the method's parameters, then the fields of the innermost instance outwards. */
    static List<JudgedDir> of(ReflectiveInvocationContext<Method> invocation, ExtensionContext context) {
        if (!declared(context.getRequiredTestClass())) {
            return List.of();
        }
        List<JudgedDir> out = new ArrayList<>();
        Parameter[] parameters = invocation.getExecutable().getParameters();
        List<Object> arguments = invocation.getArguments();
        for (int i = 0; i < parameters.length && i < arguments.size(); i++) {
            if (parameters[i].isAnnotationPresent(TempDir.class)) {
                add(out, arguments.get(i), "parameter " + (parameters[i].isNamePresent() ? parameters[i].getName() : "#" + (i + 1)));
            }
        }
        List<Object> instances = new ArrayList<>(context.getRequiredTestInstances().getAllInstances());
        java.util.Collections.reverse(instances);
        for (Object instance : instances) {
            for (Field f : FIELDS.get(instance.getClass())) {
                Object target = Modifier.isStatic(f.getModifiers()) ? null : instance;
                ReflectionSupport.tryToReadFieldValue(f, target).toOptional()
                        .ifPresent(v -> add(out, v, "field " + f.getDeclaringClass().getSimpleName() + "." + f.getName()));
            }
        }
        return out;
    }

    private static void add(List<JudgedDir> out, Object value, String name) {
        Optional<Path> path = value instanceof Path p ? Optional.of(p) : value instanceof File f ? Optional.of(f.toPath()) : Optional.empty();
        path.ifPresent(p -> out.add(Targets.tempDir(p, name)));
    }
}
